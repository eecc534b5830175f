//go:build !cgo

#include "textflag.h"

// rt0 is the process's entry point when the guard is linked with
// -ldflags=-E=github.com/guard-exec/guard-exec/bashcli.rt0 (EntryLDFlags).
// It runs before the Go runtime, which replaces every ignored signal's
// SIG_IGN with its own handler, and records what exec would otherwise lose:
// which signals were ignored (startIgnored) and the signal mask
// (startMask). Raw system calls only; then it jumps to the runtime's usual
// entry with the stack as the kernel left it.
TEXT ·rt0(SB),NOSPLIT|NOFRAME,$0
	MOVQ	$1, R12
loop:
	MOVQ	$13, AX			// rt_sigaction(sig, NULL, &startAct, 8)
	MOVQ	R12, DI
	XORQ	SI, SI
	LEAQ	·startAct(SB), DX
	MOVQ	$8, R10
	SYSCALL
	CMPQ	AX, $0
	JNE	next
	MOVQ	·startAct(SB), AX
	CMPQ	AX, $1			// SIG_IGN
	JNE	next
	LEAQ	·startIgnored(SB), AX
	MOVB	$1, (AX)(R12*1)
next:
	INCQ	R12
	CMPQ	R12, $65
	JLT	loop
	MOVQ	$14, AX			// rt_sigprocmask(SIG_BLOCK, NULL, &startMask, 8)
	XORQ	DI, DI
	XORQ	SI, SI
	LEAQ	·startMask(SB), DX
	MOVQ	$8, R10
	SYSCALL
	MOVB	$1, ·startRecorded(SB)
	JMP	_rt0_amd64_linux(SB)
