//go:build !cgo

#include "textflag.h"

// rt0: see entry_linux_amd64.s.
TEXT ·rt0(SB),NOSPLIT|NOFRAME,$0
	MOVD	$1, R19
loop:
	MOVD	R19, R0			// rt_sigaction(sig, NULL, &startAct, 8)
	MOVD	$0, R1
	MOVD	$·startAct(SB), R2
	MOVD	$8, R3
	MOVD	$134, R8
	SVC
	CMP	$0, R0
	BNE	next
	MOVD	$·startAct(SB), R2
	MOVD	(R2), R4
	CMP	$1, R4			// SIG_IGN
	BNE	next
	MOVD	$·startIgnored(SB), R5
	ADD	R19, R5, R5
	MOVD	$1, R6
	MOVB	R6, (R5)
next:
	ADD	$1, R19
	CMP	$65, R19
	BLT	loop
	MOVD	$0, R0			// rt_sigprocmask(SIG_BLOCK, NULL, &startMask, 8)
	MOVD	$0, R1
	MOVD	$·startMask(SB), R2
	MOVD	$8, R3
	MOVD	$135, R8
	SVC
	MOVD	$·startRecorded(SB), R5
	MOVD	$1, R6
	MOVB	R6, (R5)
	B	_rt0_arm64_linux(SB)
