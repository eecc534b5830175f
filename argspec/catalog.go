package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// The catalogue of programs whose options are known. Option lists are the
// programs' own (GNU coreutils 9, git 2.4x, util-linux), complete where
// abbreviations are accepted, because an incomplete list would make an
// ambiguous abbreviation look unambiguous.
// catalogSpec builds the spec of a program of the catalogue, or returns nil.
// A switch, not a table: a guard process builds only the specs of the
// programs it meets, and nothing at start.
func catalogSpec(prog string) *Spec {
	switch prog {
	case "rm":
		return &Spec{Name: "rm", GNU: true, Notation: ("f,force i I interactive?= one-file-system no-preserve-root preserve-root?= r,R,recursive d,dir v,verbose help version")}
	case "rmdir":
		return &Spec{Name: "rmdir", GNU: true, Notation: ("ignore-fail-on-non-empty p,parents v,verbose help version")}
	case "cp":
		return &Spec{Name: "cp", GNU: true, Notation: ("a,archive attributes-only backup?= b copy-contents d f,force i,interactive H l,link L,dereference n,no-clobber P,no-dereference p preserve?= no-preserve= parents r,R,recursive reflink?= remove-destination sparse= strip-trailing-slashes s,symbolic-link S,suffix= t,target-directory= T,no-target-directory u,update?= v,verbose keep-directory-symlink x,one-file-system Z context?= debug help version")}
	case "mv":
		return &Spec{Name: "mv", GNU: true, Notation: ("backup?= b debug exchange f,force i,interactive n,no-clobber no-copy strip-trailing-slashes S,suffix= t,target-directory= T,no-target-directory u,update?= v,verbose Z,context help version")}
	case "ln":
		return &Spec{Name: "ln", GNU: true, Notation: ("backup?= b d,F,directory f,force i,interactive L,logical n,no-dereference P,physical r,relative s,symbolic S,suffix= t,target-directory= T,no-target-directory v,verbose help version")}
	case "touch":
		return &Spec{Name: "touch", GNU: true, Notation: ("a c,no-create d,date= f h,no-dereference m r,reference= t= time= help version")}
	case "mkdir":
		return &Spec{Name: "mkdir", GNU: true, Notation: ("m,mode= p,parents v,verbose Z context?= help version")}
	case "chmod":
		return &Spec{Name: "chmod", GNU: true, Custom: readChmod, Notation: ("c,changes f,silent,quiet v,verbose no-preserve-root preserve-root reference= R,recursive help version")}
	case "chown":
		return &Spec{Name: "chown", GNU: true, Notation: ("c,changes f,silent,quiet v,verbose dereference h,no-dereference from= no-preserve-root preserve-root reference= R,recursive H L P help version")}
	case "chgrp":
		return &Spec{Name: "chgrp", GNU: true, Notation: ("c,changes f,silent,quiet v,verbose dereference h,no-dereference no-preserve-root preserve-root reference= R,recursive H L P help version")}
	case "tee":
		return &Spec{Name: "tee", GNU: true, Notation: ("a,append i,ignore-interrupts p output-error?= help version")}
	case "truncate":
		return &Spec{Name: "truncate", GNU: true, Notation: ("c,no-create o,io-blocks r,reference= s,size= help version")}
	case "install":
		return &Spec{Name: "install", GNU: true, Notation: ("backup?= b C,compare c D d,directory g,group= m,mode= o,owner= p,preserve-timestamps s,strip strip-program= S,suffix= t,target-directory= T,no-target-directory v,verbose preserve-context Z context?= help version")}
	case "shred":
		return &Spec{Name: "shred", GNU: true, Notation: ("f,force n,iterations= random-source= s,size= u remove?= v,verbose x,exact z,zero help version")}
	case "sed":
		return &Spec{Name: "sed", GNU: true, Notation: ("n,quiet,silent debug e,expression= f,file= follow-symlinks i,in-place?= l,line-length= posix E,r,regexp-extended s,separate sandbox u,unbuffered z,null-data help version")}
	case "sort":
		return &Spec{Name: "sort", GNU: true, Notation: ("b,ignore-leading-blanks d,dictionary-order f,ignore-case g,general-numeric-sort i,ignore-nonprinting M,month-sort h,human-numeric-sort n,numeric-sort R,random-sort random-source= r,reverse sort= V,version-sort batch-size= c check?= C compress-program= debug files0-from= k,key= m,merge o,output= s,stable S,buffer-size= t,field-separator= T,temporary-directory= parallel= u,unique z,zero-terminated help version")}
	case "uniq":
		return &Spec{Name: "uniq", GNU: true, Notation: ("c,count d,repeated D all-repeated?= f,skip-fields= group?= i,ignore-case s,skip-chars= u,unique z,zero-terminated w,check-chars= help version")}
	case "diff":
		// Every option of GNU diffutils 3.8's getopt tables, hidden ones
		// and the obsolete -NUM included.
		return &Spec{Name: "diff", GNU: true, Complete: true, Notation: ("normal q,brief s,report-identical-files c C= context?= u U= unified?= e,ed n,rcs " +
			"y,side-by-side W,width= left-column suppress-common-lines p,show-c-function F,show-function-line= L,label= " +
			"t,expand-tabs T,initial-tab tabsize= suppress-blank-empty l,paginate r,recursive no-dereference N,new-file " +
			"P,unidirectional-new-file ignore-file-name-case no-ignore-file-name-case x,exclude= X,exclude-from= " +
			"S,starting-file= from-file= to-file= i,ignore-case E,ignore-tab-expansion Z,ignore-trailing-space " +
			"b,ignore-space-change w,ignore-all-space B,ignore-blank-lines I,ignore-matching-lines= a,text " +
			"strip-trailing-cr D,ifdef= old-group-format= new-group-format= unchanged-group-format= changed-group-format= " +
			"line-format= old-line-format= new-line-format= unchanged-line-format= d,minimal horizon-lines= " +
			"H,speed-large-files color?= palette= f,forward-ed h binary sdiff-merge-assist presume-output-tty help " +
			"v,version 0 1 2 3 4 5 6 7 8 9")}
	case "dd":
		return &Spec{Name: "dd", Custom: readDD}
	case "find":
		return &Spec{Name: "find", Custom: readFind}
	case "tar":
		// Every option of GNU tar 1.34's --help (GNU tar takes any
		// unambiguous abbreviation, so the list is complete).
		return &Spec{Name: "tar", Custom: readTar, GNU: true, Complete: true, Notation: ("A,catenate,concatenate c,create delete d,diff,compare r,append test-label t,list u,update x,extract,get " +
			"check-device g,listed-incremental= G,incremental hole-detection= ignore-failed-read level= no-check-device no-seek " +
			"n,seek occurrence?= sparse-version= S,sparse add-file= C,directory= exclude= exclude-backups exclude-caches " +
			"exclude-caches-all exclude-caches-under exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= " +
			"exclude-tag-under= exclude-vcs exclude-vcs-ignores no-null no-recursion no-unquote no-verbatim-files-from null " +
			"recursion T,files-from= unquote verbatim-files-from X,exclude-from= anchored ignore-case no-anchored no-ignore-case " +
			"no-wildcards no-wildcards-match-slash wildcards wildcards-match-slash keep-directory-symlink keep-newer-files " +
			"k,keep-old-files no-overwrite-dir one-top-level?= overwrite overwrite-dir recursive-unlink remove-files " +
			"skip-old-files U,unlink-first W,verify ignore-command-error no-ignore-command-error O,to-stdout to-command= " +
			"atime-preserve?= clamp-mtime delay-directory-restore group= group-map= mode= mtime= m,touch " +
			"no-delay-directory-restore no-same-owner no-same-permissions numeric-owner owner= owner-map= " +
			"p,preserve-permissions,same-permissions same-owner sort= s,preserve-order,same-order acls no-acls no-selinux " +
			"no-xattrs selinux xattrs xattrs-exclude= xattrs-include= force-local f,file= F,info-script,new-volume-script= " +
			"L,tape-length= M,multi-volume rmt-command= rsh-command= volno-file= b,blocking-factor= B,read-full-records " +
			"i,ignore-zeros record-size= H,format= old-archive,portability pax-option= posix V,label= a,auto-compress " +
			"I,use-compress-program= j,bzip2 J,xz lzip lzma lzop no-auto-compress zstd z,gzip,gunzip,ungzip " +
			"Z,compress,uncompress backup?= hard-dereference h,dereference K,starting-file= newer-mtime= N,newer,after-date= " +
			"one-file-system P,absolute-names suffix= strip-components= transform,xform= checkpoint?= checkpoint-action= " +
			"full-time index-file= l,check-links no-quote-chars= quote-chars= quoting-style= R,block-number show-defaults " +
			"show-omitted-dirs show-snapshot-field-ranges show-transformed-names,show-stored-names totals?= utc v,verbose " +
			"warning= w,interactive,confirmation o ?,help restrict usage version")}
	case "kill":
		return &Spec{Name: "kill", NumericOpt: "--signal", Custom: readKill, Notation: ("s,signal= n= l,list?= L,table q,queue= p,pid a,all timeout= verbose help version")}
	case "pkill":
		return &Spec{Name: "pkill", GNU: true, Notation: ("signal= e,echo c,count f,full g,pgroup= G,group= i,ignore-case n,newest o,older= O,oldest P,parent= s,session= t,terminal= u,euid= U,uid= x,exact F,pidfile= L,logpidfile r,runstates= A,ignore-ancestors cgroup= ns= nslist= q,queue= help version")}
	case "rsync":
		return &Spec{Name: "rsync", GNU: true, Notation: ("v,verbose info= debug= stderr= q,quiet no-motd c,checksum a,archive no-OPTION r,recursive R,relative no-implied-dirs b,backup backup-dir= suffix= u,update inplace append append-verify d,dirs mkpath l,links L,copy-links copy-unsafe-links safe-links munge-links k,copy-dirlinks K,keep-dirlinks H,hard-links p,perms E,executability chmod= A,acls X,xattrs o,owner g,group devices specials D times,t atimes,U crtimes,N O,omit-dir-times J,omit-link-times super fake-super S,sparse preallocate n,dry-run W,whole-file checksum-choice,cc= x,one-file-system B,block-size= e,rsh= rsync-path= existing ignore-existing remove-source-files del delete delete-before delete-during delete-delay delete-after delete-excluded ignore-missing-args delete-missing-args ignore-errors force max-delete= max-size= min-size= max-alloc= partial partial-dir= delay-updates m,prune-empty-dirs numeric-ids usermap= groupmap= chown= timeout= contimeout= I,ignore-times size-only modify-window,@= T,temp-dir= y,fuzzy compare-dest= copy-dest= link-dest= z,compress compress-choice,zc= compress-level,zl= skip-compress= C,cvs-exclude f,filter= F exclude= exclude-from= include= include-from= files-from= 0,from0 s,secluded-args trust-sender copy-as= address= port= sockopts= blocking-io outbuf= stats 8,8-bit-output h,human-readable progress P i,itemize-changes M,remote-option= out-format= log-file= log-file-format= password-file= early-input= list-only bwlimit= stop-after= stop-at= fsync write-batch= only-write-batch= read-batch= protocol= iconv= 4,ipv4 6,ipv6 V,version help")}
	case "curl":
		return curlSpec
	case "wget":
		// Every option of wget 1.24's src/main.c option_data (1.21's are
		// all in it): a boolean's short letter takes no value, its long
		// name an optional one (--quiet=off), and --no-NAME; -n takes one
		// letter (-nv, -nc, -np).
		return &Spec{Name: "wget", GNU: true, Complete: true, Notation: ("A,accept= accept-regex= E adjust-extension?= no-adjust-extension a,append-output= ask-password?= " +
			"no-ask-password auth-no-challenge?= no-auth-no-challenge b background?= no-background K " +
			"backup-converted?= no-backup-converted backups?= no-backups B,base= bind-address= bind-dns-address= " +
			"body-data= body-file= ca-certificate= ca-directory= cache?= no-cache certificate= certificate-type= " +
			"check-certificate?= no-check-certificate clobber?= compression= config= connect-timeout= c " +
			"continue?= no-continue convert-file-only?= no-convert-file-only k convert-links?= no-convert-links " +
			"content-disposition?= no-content-disposition content-on-error?= no-content-on-error cookies?= " +
			"no-cookies crl-file= cut-dirs= d debug?= no-debug default-page= delete-after?= no-delete-after " +
			"directories?= no-directories P,directory-prefix= dns-cache?= no-dns-cache dns-servers= dns-timeout= " +
			"D,domains= dont-remove-listing dot-style= egd-file= X,exclude-directories= exclude-domains= " +
			"e,execute= follow-ftp?= no-follow-ftp follow-tags= x force-directories?= no-force-directories F " +
			"force-html?= no-force-html ftp-password= ftp-stmlf?= no-ftp-stmlf ftp-user= " +
			"ftps-clear-data-connection?= no-ftps-clear-data-connection ftps-fallback-to-ftp?= " +
			"no-ftps-fallback-to-ftp ftps-implicit?= no-ftps-implicit ftps-resume-ssl?= no-ftps-resume-ssl glob?= " +
			"no-glob header= h,help host-directories?= no-host-directories hsts?= no-hsts hsts-file= E " +
			"html-extension?= no-html-extension htmlify?= no-htmlify http-keep-alive?= no-http-keep-alive " +
			"http-passwd= http-password= http-user= https-only?= no-https-only ignore-case?= no-ignore-case " +
			"ignore-length?= no-ignore-length ignore-tags= I,include-directories= 4 inet4-only?= no-inet4-only 6 " +
			"inet6-only?= no-inet6-only i,input-file= input-metalink= iri?= no-iri keep-badhash?= no-keep-badhash " +
			"keep-session-cookies?= no-keep-session-cookies l,level= limit-rate= load-cookies= local-encoding= " +
			"rejected-log= max-redirect= metalink-index= metalink-over-http?= no-metalink-over-http method= m " +
			"mirror?= no-mirror netrc?= no-netrc n,no= no-clobber?= no-no-clobber no-config?= no-no-config " +
			"no-parent?= no-no-parent O,output-document= o,output-file= p page-requisites?= no-page-requisites " +
			"parent?= passive-ftp?= no-passive-ftp password= pinnedpubkey= post-data= post-file= prefer-family= " +
			"preferred-location= preserve-permissions?= no-preserve-permissions ciphers= private-key= " +
			"private-key-type= progress= show-progress?= no-show-progress protocol-directories?= " +
			"no-protocol-directories proxy?= no-proxy proxy-passwd= proxy-password= proxy-user= q quiet?= " +
			"no-quiet Q,quota= random-file= random-wait?= no-random-wait read-timeout= r recursive?= no-recursive " +
			"referer= regex-type= R,reject= reject-regex= L relative?= no-relative remote-encoding= " +
			"remove-listing?= no-remove-listing report-speed?= no-report-speed restrict-file-names?= " +
			"no-restrict-file-names retr-symlinks?= no-retr-symlinks retry-connrefused?= no-retry-connrefused " +
			"retry-on-host-error?= no-retry-on-host-error retry-on-http-error= save-cookies= save-headers?= " +
			"no-save-headers secure-protocol= S server-response?= no-server-response H span-hosts?= no-span-hosts " +
			"spider?= no-spider start-pos= strict-comments?= no-strict-comments T,timeout= N timestamping?= " +
			"no-timestamping if-modified-since?= no-if-modified-since t,tries= unlink?= no-unlink " +
			"trust-server-names?= no-trust-server-names use-askpass= use-server-timestamps?= " +
			"no-use-server-timestamps user= U,user-agent= v verbose?= no-verbose V,version w,wait= waitretry= " +
			"warc-cdx?= no-warc-cdx warc-compression?= no-warc-compression warc-dedup= warc-digests?= " +
			"no-warc-digests warc-file= warc-header= warc-keep-log?= no-warc-keep-log warc-max-size= " +
			"warc-tempdir= wdebug?= no-wdebug xattr?= no-xattr")}
	case "unzip":
		return &Spec{Name: "unzip", Custom: readUnzip, Notation: unzipOpts}
	case "grep":
		return &Spec{Name: "grep", GNU: true, Notation: ("E,extended-regexp F,fixed-strings G,basic-regexp P,perl-regexp e,regexp= f,file= i,ignore-case no-ignore-case w,word-regexp x,line-regexp z,null-data s,no-messages v,invert-match V,version help m,max-count= b,byte-offset n,line-number line-buffered H,with-filename h,no-filename label= o,only-matching q,quiet,silent binary-files= a,text I d,directories= D,devices= r,recursive R,dereference-recursive include= exclude= exclude-from= exclude-dir= L,files-without-match l,files-with-matches c,count T,initial-tab Z,null A,after-context= B,before-context= C,context= NUM color?= colour?= U,binary y")}
	case "fd", "fdfind":
		// fd 8–10 (clap): -x/-X take the rest of the line as the
		// command; a cluster -Hx is -H -x.
		return &Spec{Name: "fd", GNU: true, Notation: ("H,hidden no-hidden I,no-ignore ignore no-ignore-vcs ignore-vcs no-require-git require-git no-ignore-parent no-global-ignore-file u,unrestricted s,case-sensitive i,ignore-case g,glob regex F,fixed-strings and= a,absolute-path relative-path l,list-details L,follow no-follow p,full-path 0,print0 q,quiet h,help V,version d,max-depth= min-depth= exact-depth= t,type= e,extension= E,exclude= c,color= j,threads= S,size= o,owner= x,exec= X,exec-batch= batch-size= changed-within,change-newer-than,newer= changed-before,change-older-than,older= max-results= 1 base-directory= search-path= path-separator= ignore-file= format= prune one-file-system,mount,xdev strip-cwd-prefix?= hyperlink?= show-errors max-buffer-time=")}
	case "rg":
		return &Spec{Name: "rg", GNU: true, Notation: ("e,regexp= f,file= A,after-context= B,before-context= C,context= c,count count-matches color= colors= column no-column context-separator= debug trace dfa-size-limit= E,encoding= engine= field-context-separator= field-match-separator= files files-with-matches,l files-without-match follow,L g,glob= glob-case-insensitive heading no-heading hidden iglob= i,ignore-case ignore-file= ignore-file-case-insensitive include-zero invert-match,v json line-buffered n,line-number N,no-line-number x,line-regexp M,max-columns= max-columns-preview m,max-count= max-depth,d= max-filesize= mmap no-mmap U,multiline multiline-dotall no-config no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-messages no-pcre2-unicode no-unicode 0,null null-data one-file-system o,only-matching passthru,passthrough path-separator= P,pcre2 pcre2-version pre= pre-glob= p,pretty q,quiet regex-size-limit= r,replace= z,search-zip S,smart-case sort= sortr= stats s,case-sensitive T,type-not= t,type= type-add= type-clear= type-list u,unrestricted vimgrep H,with-filename I,no-filename w,word-regexp F,fixed-strings a,text binary no-binary block-buffered byte-offset,b crlf no-crlf h,help V,version j,threads=")}
	// Formatters: they rewrite their operands only when told to (-w,
	// --write, -i), except black and rustfmt, which write unless told not
	// to; a directory is formatted as a whole tree.
	case "gofmt":
		return &Spec{Name: "gofmt", SingleDash: true, Notation: ("l w d s e r= cpuprofile=")}
	case "goimports":
		return &Spec{Name: "goimports", SingleDash: true, Notation: ("l w d e srcdir= local= format-only v cpuprofile= memprofile= memrate=")}
	case "shfmt":
		return &Spec{Name: "shfmt", SingleDash: true, Notation: ("l,list w,write d,diff s,simplify mn,minify i,indent= ln,language-dialect= p,posix bn,binary-next-line ci,case-indent sr,space-redirects kp,keep-padding fn,func-next-line f,find filename= h,help version tojson,to-json fromjson,from-json")}
	case "clang-format":
		return &Spec{Name: "clang-format", SingleDash: true, Notation: ("i style= fallback-style= assume-filename= dry-run n Werror lines= offset= length= sort-includes output-replacements-xml verbose version help")}
	case "prettier":
		return &Spec{Name: "prettier", GNU: true, Notation: ("w,write c,check l,list-different u,ignore-unknown config= no-config ignore-path= stdin-filepath= parser= plugin= log-level= cache cache-location= no-editorconfig with-node-modules no-error-on-unmatched-pattern print-width= tab-width= use-tabs no-semi single-quote jsx-single-quote quote-props= trailing-comma= no-bracket-spacing bracket-same-line arrow-parens= prose-wrap= end-of-line= embedded-language-formatting= single-attribute-per-line object-wrap= experimental-ternaries h,help v,version")}
	case "black":
		return &Spec{Name: "black", GNU: true, Notation: ("c,code= l,line-length= t,target-version= pyi ipynb python-cell-magics= x,skip-source-first-line S,skip-string-normalization C,skip-magic-trailing-comma preview unstable enable-unstable-feature= check diff color no-color fast safe required-version= exclude= extend-exclude= force-exclude= include= stdin-filename= W,workers= q,quiet v,verbose version config= h,help")}
	case "rustfmt":
		return &Spec{Name: "rustfmt", GNU: true, Notation: ("check emit= backup config-path= edition= style-edition= color= print-config= l,files-with-diff config= v,verbose q,quiet h,help V,version")}
	// Build tools whose options carry code (their records in carried.go
	// read it). GNU make 4.3's options, complete for getopt's abbreviations;
	// -j and -l take an optional number, attached or next.
	case "make", "gmake":
		return &Spec{Name: "make", GNU: true, Notation: ("b m B,always-make C,directory= d debug?= e,environment-overrides E,eval= f,file,makefile= h,help i,ignore-errors I,include-dir= j,jobs?= k,keep-going l,load-average,max-load?= L,check-symlink-times n,just-print,dry-run,recon o,old-file,assume-old= O,output-sync?= p,print-data-base q,question r,no-builtin-rules R,no-builtin-variables s,silent,quiet no-silent S,no-keep-going,stop t,touch trace v,version w,print-directory no-print-directory W,what-if,new-file,assume-new= warn-undefined-variables jobserver-auth= jobserver-fds= shuffle?= jobserver-style=")}
	// Wrapper programs: their option arities let the resolver find the
	// command they run. The resolver itself lives in shellparse.
	case "env":
		return &Spec{Name: "env", Abbrev: true, Notation: ("i,ignore-environment 0,null u,unset= C,chdir= S,split-string= v,debug block-signal?= default-signal?= ignore-signal?= list-signal-handling a,argv0= help version")}
	case "sudo":
		return &Spec{Name: "sudo", Notation: ("A,askpass b,background C,close-from= D,chdir= E,preserve-env?= e,edit g,group= H,set-home h,host?= i,login K,remove-timestamp k,reset-timestamp l,list n,non-interactive P,preserve-groups p,prompt= R,chroot= r,role= S,stdin s,shell t,type= T,command-timeout= U,other-user= u,user= V,version v,validate B,bell N,no-update")}
	case "doas":
		return &Spec{Name: "doas", Notation: ("n s u= C= L")}
	case "timeout":
		return &Spec{Name: "timeout", Abbrev: true, Notation: ("k,kill-after= s,signal= f,foreground p,preserve-status v,verbose help version")}
	case "nice":
		return &Spec{Name: "nice", Abbrev: true, NumericOpt: "--adjustment", Notation: ("n,adjustment= help version")}
	case "nohup":
		return &Spec{Name: "nohup", Notation: ("help version")}
	case "stdbuf":
		return &Spec{Name: "stdbuf", Abbrev: true, Notation: ("i,input= o,output= e,error= help version")}
	case "setsid":
		return &Spec{Name: "setsid", Abbrev: true, Notation: ("c,ctty f,fork w,wait h,help V,version")}
	case "ionice":
		return &Spec{Name: "ionice", Abbrev: true, Notation: ("c,class= n,classdata= p,pid P,pgid t,ignore u,uid= h,help V,version")}
	case "chrt":
		return &Spec{Name: "chrt", Abbrev: true, Notation: ("a,all-tasks b,batch d,deadline f,fifo i,idle o,other r,rr e,ext R,reset-on-fork p,pid m,max v,verbose T,sched-runtime= P,sched-period= D,sched-deadline= h,help V,version")}
	case "taskset":
		return &Spec{Name: "taskset", Abbrev: true, Notation: ("a,all-tasks c,cpu-list p,pid h,help V,version")}
	case "flock":
		return &Spec{Name: "flock", Abbrev: true, Notation: ("s,shared x,e,exclusive u,unlock n,nb,nonblock w,wait,timeout= o,close E,conflict-exit-code= F,no-fork c,command= verbose h,help V,version")}
	case "watch":
		return &Spec{Name: "watch", Abbrev: true, Notation: ("b,beep c,color C,no-color d,differences?= e,errexit g,chgexit n,interval= p,precise t,no-title w,no-wrap x,exec q,equexit= r,no-rerun s,shotgun h,help v,version")}
	case "xargs":
		return &Spec{Name: "xargs", Abbrev: true, Notation: ("0,null a,arg-file= d,delimiter= E= e,eof?= I= i,replace?= L= l,max-lines?= n,max-args= o,open-tty p,interactive P,max-procs= r,no-run-if-empty s,max-chars= show-limits t,verbose x,exit process-slot-var= help version")}
	case "command":
		return &Spec{Name: "command", Notation: ("p v V")}
	case "exec":
		return &Spec{Name: "exec", Notation: ("c l a=")}
	case "su":
		return &Spec{Name: "su", GNU: true, Notation: ("c,command= f,fast g,group= G,supp-group= l,login m,p,preserve-environment P,pty s,shell= w,whitelist-environment= session-command= h,help V,version")}
	case "runuser":
		return &Spec{Name: "runuser", GNU: true, Notation: ("c,command= f,fast g,group= G,supp-group= l,login m,p,preserve-environment P,pty s,shell= u,user= w,whitelist-environment= session-command= h,help V,version")}
	case "script":
		return &Spec{Name: "script", GNU: true, Notation: ("a,append c,command= E,echo= e,return f,flush B,log-io= I,log-in= O,log-out= T,log-timing= m,logging-format= o,output-limit= q,quiet t,timing?= h,help V,version")}
	case "unbuffer":
		return &Spec{Name: "unbuffer", Notation: ("p")}
	case "strace":
		return &Spec{Name: "strace", Notation: ("a= A b= c C d D e= E= f F h i I= k n o= O= p= P= q r s= S= t T u= v V w x X= y z Z")}
	case "ltrace":
		return &Spec{Name: "ltrace", Notation: ("a= A= b c C D= e= f F= h i l= L n= o= p= r s= S t T u= w= x=")}
	case "time":
		return &Spec{Name: "time", Notation: ("a,append f,format= o,output= p,portability q,quiet v,verbose help version")}
	case "chroot":
		return &Spec{Name: "chroot", Abbrev: true, Notation: ("userspec= groups= skip-chdir help version")}
	}
	return nil
}

func gitSpec() *Spec {
	g := &Spec{Name: "git", Abbrev: true, Notation: ("C= c= config-env= exec-path?= html-path man-path info-path p,paginate P,no-pager no-replace-objects no-lazy-fetch no-optional-locks no-advice bare git-dir= work-tree= namespace= super-prefix= literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs list-cmds= attr-source= v,version h,help")}
	g.Subs = subs(
		&Spec{Name: "push", GNU: true, Notation: ("all branches mirror tags follow-tags no-follow-tags atomic no-atomic n,dry-run porcelain d,delete prune f,force force-with-lease?= no-force-with-lease force-if-includes no-force-if-includes repo= u,set-upstream thin no-thin q,quiet v,verbose progress recurse-submodules= verify no-verify o,push-option= signed?= no-signed 4,ipv4 6,ipv6 receive-pack,exec=")},
		&Spec{Name: "reset", GNU: true, Notation: ("soft mixed hard merge keep q,quiet N intent-to-add recurse-submodules?= no-recurse-submodules pathspec-from-file= pathspec-file-nul no-refresh refresh p,patch")},
		&Spec{Name: "clean", GNU: true, Notation: ("d f,force i,interactive n,dry-run q,quiet e,exclude= x X")},
		&Spec{Name: "checkout", GNU: true, Notation: ("q,quiet progress no-progress f,force ours theirs b= B= t,track?= no-track guess no-guess l d,detach orphan= ignore-skip-worktree-bits m,merge conflict= p,patch ignore-other-worktrees overwrite-ignore no-overwrite-ignore recurse-submodules no-recurse-submodules pathspec-from-file= pathspec-file-nul overlay no-overlay")},
		&Spec{Name: "switch", GNU: true, Notation: ("c,create= C,force-create= d,detach guess no-guess f,force,discard-changes m,merge conflict= q,quiet progress no-progress t,track?= no-track orphan= ignore-other-worktrees recurse-submodules no-recurse-submodules")},
		&Spec{Name: "restore", GNU: true, Notation: ("s,source= p,patch W,worktree S,staged q,quiet progress no-progress ours theirs m,merge conflict= ignore-unmerged ignore-skip-worktree-bits recurse-submodules no-recurse-submodules overlay no-overlay pathspec-from-file= pathspec-file-nul")},
		&Spec{Name: "branch", GNU: true, Notation: ("d,delete D f,force m,move M c,copy C a,all r,remotes l,list v,verbose q,quiet show-current contains?= no-contains?= merged?= no-merged?= sort= format= u,set-upstream-to= unset-upstream t,track?= no-track edit-description points-at= color?= no-color column?= no-column i,ignore-case omit-empty create-reflog abbrev= no-abbrev recurse-submodules")},
		&Spec{Name: "tag", GNU: true, Notation: ("a,annotate s,sign u,local-user= f,force d,delete v,verify n?= l,list sort= color?= i,ignore-case omit-empty column?= no-column contains?= no-contains?= merged?= no-merged?= points-at= m,message= F,file= e,edit no-edit cleanup= create-reflog format= trailer=")},
		&Spec{Name: "stash", Subs: subs(
			&Spec{Name: "push,save", GNU: true, Notation: ("p,patch S,staged k,keep-index no-keep-index u,include-untracked a,all q,quiet m,message= pathspec-from-file= pathspec-file-nul")},
			&Spec{Name: "pop", GNU: true, Notation: ("index q,quiet")},
			&Spec{Name: "apply", GNU: true, Notation: ("index q,quiet")},
			&Spec{Name: "drop", GNU: true, Notation: ("q,quiet")},
			&Spec{Name: "clear"},
			&Spec{Name: "list", Notation: ("output=")},
			&Spec{Name: "show", GNU: true, Notation: ("u,include-untracked only-untracked p,patch stat output=")},
			&Spec{Name: "branch"},
			&Spec{Name: "create"},
			&Spec{Name: "store", Notation: ("m,message= q,quiet")},
		), GNU: true, Notation: ("p,patch S,staged k,keep-index u,include-untracked a,all q,quiet m,message=")},
		&Spec{Name: "rm", GNU: true, Notation: ("f,force n,dry-run r cached ignore-unmatch sparse q,quiet pathspec-from-file= pathspec-file-nul")},
		&Spec{Name: "mv", GNU: true, Notation: ("v,verbose n,dry-run f,force k sparse")},
		&Spec{Name: "commit", GNU: true, Notation: ("a,all p,patch C,reuse-message= c,reedit-message= fixup= squash= reset-author short branch porcelain long z,null F,file= author= date= m,message= t,template= s,signoff no-signoff n,no-verify verify allow-empty allow-empty-message cleanup= e,edit no-edit amend no-post-rewrite i,include o,only pathspec-from-file= pathspec-file-nul u,untracked-files?= v,verbose q,quiet dry-run status no-status S,gpg-sign?= no-gpg-sign trailer=")},
		&Spec{Name: "config", GNU: true, Notation: ("global system local worktree f,file= blob= get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section l,list fixed-value t,type= bool int bool-or-int path expiry-date no-type z,null name-only includes no-includes show-origin show-scope default= e,edit")},
		&Spec{Name: "log", Notation: ("output=")},
		&Spec{Name: "diff", Notation: ("output=")},
		&Spec{Name: "show", Notation: ("output=")},
		&Spec{Name: "status"},
		&Spec{Name: "add", GNU: true, Notation: ("n,dry-run v,verbose i,interactive p,patch e,edit f,force sparse u,update A,all no-all no-ignore-removal ignore-removal N,intent-to-add refresh ignore-errors ignore-missing renormalize chmod= pathspec-from-file= pathspec-file-nul")},
		// Subcommands whose options carry commands (git's record in
		// carried_git.go reads them): complete lists from git 2.4x's -h, so that an
		// abbreviation (--exe=CMD) resolves as git resolves it.
		&Spec{Name: "rebase", GNU: true, Notation: ("onto= keep-base no-keep-base verify no-verify q,quiet v,verbose n,no-stat stat signoff no-signoff committer-date-is-author-date reset-author-date C= ignore-whitespace whitespace= f,force-rebase no-ff continue skip abort quit edit-todo show-current-patch apply m,merge i,interactive rerere-autoupdate no-rerere-autoupdate empty= autosquash no-autosquash update-refs no-update-refs S,gpg-sign?= no-gpg-sign autostash no-autostash x,exec= r,rebase-merges?= no-rebase-merges fork-point no-fork-point s,strategy= X,strategy-option= root reschedule-failed-exec no-reschedule-failed-exec reapply-cherry-picks no-reapply-cherry-picks keep-empty no-keep-empty")},
		&Spec{Name: "fetch", GNU: true, Notation: ("v,verbose q,quiet all no-all set-upstream a,append atomic upload-pack= f,force m,multiple t,tags no-tags n j,jobs= prefetch p,prune no-prune P,prune-tags recurse-submodules?= no-recurse-submodules dry-run write-fetch-head no-write-fetch-head k,keep u,update-head-ok progress no-progress depth= shallow-since= shallow-exclude= deepen= unshallow refetch update-shallow refmap= o,server-option= 4,ipv4 6,ipv6 negotiation-tip= negotiate-only filter= auto-maintenance no-auto-maintenance auto-gc no-auto-gc show-forced-updates no-show-forced-updates write-commit-graph no-write-commit-graph stdin porcelain")},
		&Spec{Name: "pull", GNU: true, Notation: ("v,verbose q,quiet progress no-progress recurse-submodules?= no-recurse-submodules r,rebase?= no-rebase n no-stat stat log?= no-log signoff?= no-signoff squash no-squash commit no-commit edit no-edit cleanup= ff no-ff ff-only verify no-verify verify-signatures no-verify-signatures autostash no-autostash s,strategy= X,strategy-option= S,gpg-sign?= no-gpg-sign allow-unrelated-histories all no-all a,append upload-pack= f,force t,tags no-tags p,prune no-prune j,jobs?= dry-run k,keep depth= shallow-since= shallow-exclude= deepen= unshallow update-shallow refmap= o,server-option= 4,ipv4 6,ipv6 negotiation-tip= show-forced-updates no-show-forced-updates set-upstream")},
		&Spec{Name: "clone", GNU: true, Notation: ("v,verbose q,quiet progress no-progress reject-shallow no-reject-shallow n,no-checkout checkout bare mirror l,local no-local no-hardlinks hardlinks s,shared recurse-submodules?= recursive?= j,jobs= template= reference= reference-if-able= dissociate o,origin= b,branch= revision= u,upload-pack= depth= shallow-since= shallow-exclude= single-branch no-single-branch no-tags tags shallow-submodules no-shallow-submodules separate-git-dir= ref-format= c,config= server-option= 4,ipv4 6,ipv6 filter= also-filter-submodules remote-submodules no-remote-submodules sparse bundle-uri=")},
		&Spec{Name: "merge", GNU: true, Notation: ("n no-stat stat summary no-summary log?= no-log squash no-squash commit no-commit e,edit no-edit cleanup= ff no-ff ff-only rerere-autoupdate no-rerere-autoupdate verify-signatures no-verify-signatures s,strategy= X,strategy-option= m,message= F,file= into-name= v,verbose q,quiet abort quit continue allow-unrelated-histories progress no-progress S,gpg-sign?= no-gpg-sign autostash no-autostash overwrite-ignore no-overwrite-ignore signoff no-signoff verify no-verify")},
		&Spec{Name: "cherry-pick", GNU: true, Notation: ("quit continue abort skip cleanup= n,no-commit e,edit no-edit s,signoff m,mainline= rerere-autoupdate no-rerere-autoupdate strategy= X,strategy-option= S,gpg-sign?= no-gpg-sign x ff allow-empty allow-empty-message empty= keep-redundant-commits")},
		&Spec{Name: "revert", GNU: true, Notation: ("quit continue abort skip cleanup= n,no-commit e,edit no-edit s,signoff m,mainline= rerere-autoupdate no-rerere-autoupdate strategy= X,strategy-option= S,gpg-sign?= no-gpg-sign reference")},
		&Spec{Name: "grep", GNU: true, Notation: ("cached no-index index untracked exclude-standard no-exclude-standard recurse-submodules no-recurse-submodules v,invert-match i,ignore-case w,word-regexp a,text I textconv no-textconv r,recursive no-recursive max-depth= E,extended-regexp G,basic-regexp F,fixed-strings P,perl-regexp n,line-number column h H full-name l,files-with-matches name-only L,files-without-match z,null o,only-matching c,count color?= no-color break heading p,show-function W,function-context threads= f= e= and or not q,quiet all-match O,open-files-in-pager?= ext-grep m,max-count= C,context= B,before-context= A,after-context=")},
		&Spec{Name: "ls-remote", GNU: true, Notation: ("q,quiet upload-pack,exec= t,tags b,branches h,heads refs get-url sort= exit-code symref o,server-option=")},
		&Spec{Name: "archive", GNU: true, Notation: ("format= prefix= add-file= add-virtual-file= o,output= worktree-attributes v,verbose l,list remote= exec= mtime=")},
		&Spec{Name: "difftool", GNU: true, Notation: ("g,gui no-gui d,dir-diff no-dir-diff y,no-prompt prompt symlinks no-symlinks t,tool= tool-help trust-exit-code no-trust-exit-code x,extcmd= no-index")},
	)
	// git's parse-options reads options after operands too (git branch
	// foo -D), until "--".
	for _, sub := range g.Subs {
		sub.GNU = true
		for _, s2 := range sub.Subs {
			s2.GNU = true
		}
	}
	return g
}

func kubectlSpec() *Spec {
	k := &Spec{Name: "kubectl", GNU: true, Persistent: true, Notation: ("n,namespace= context= cluster= kubeconfig= user= s,server= token= as= as-group= as-uid= certificate-authority= client-certificate= client-key= insecure-skip-tls-verify request-timeout= tls-server-name= v= log-flush-frequency= cache-dir= profile= profile-output= match-server-version disable-compression warnings-as-errors password= username= A,all-namespaces")}
	k.Subs = subs(
		&Spec{Name: "delete", GNU: true, Notation: ("all f,filename= R,recursive k,kustomize= l,selector= field-selector= grace-period= now force wait cascade?= ignore-not-found i,interactive o,output= raw= dry-run?=")},
		&Spec{Name: "get", GNU: true, Notation: ("o,output= l,selector= w,watch field-selector= show-labels L,label-columns= sort-by= chunk-size= ignore-not-found raw= f,filename= R,recursive k,kustomize= watch-only output-watch-events server-print show-kind show-managed-fields subresource= template= allow-missing-template-keys no-headers")},
		&Spec{Name: "describe,logs,explain,top,version,api-resources,api-versions,cluster-info,diff,auth", GNU: true},
		&Spec{Name: "apply,create,replace,patch,edit,scale,rollout,drain,cordon,uncordon,taint,label,annotate,exec,run,expose,set,cp,port-forward,proxy,attach,debug,certificate,autoscale", GNU: true},
	)
	return k
}

func dockerSpec() *Spec {
	d := &Spec{Name: "docker", Notation: ("config= c,context= D,debug H,host= l,log-level= tls tlscacert= tlscert= tlskey= tlsverify v,version help")}
	d.Subs = subs(
		&Spec{Name: "rm", GNU: true, Notation: ("f,force l,link v,volumes")},
		&Spec{Name: "rmi", GNU: true, Notation: ("f,force no-prune")},
		&Spec{Name: "system,volume,network,image,container,builder,buildx,context,plugin,secret,service,stack,swarm,node,config,trust,manifest", GNU: true},
		composeSpec("compose"),
		&Spec{Name: "ps,images,logs,inspect,version,info,history,port,stats,top,diff,search,events", GNU: true},
		&Spec{Name: "kill,stop,restart,pause,unpause,run,exec,build,pull,push,tag,login,logout,cp,create,start,commit,export,import,load,save,update,wait,attach,rename", GNU: true},
	)
	return d
}

// composeSpec is docker compose (v2; also its docker-compose binary):
// the global options, which stand before the command (docker compose -f
// compose.dev.yml ps), then the command.
func composeSpec(name string) *Spec {
	c := &Spec{Name: name, GNU: true, Notation: ("all-resources ansi= compatibility dry-run env-file= f,file= parallel= profile= progress= " +
		"project-directory= p,project-name= h,help")}
	c.Subs = subs(
		&Spec{Name: "ps,logs,images,top,ls,version,config,port,events,stats", GNU: true},
		&Spec{Name: "up,down,build,exec,run,start,stop,restart,rm,kill,pull,push,create,pause,unpause,cp,attach,wait,watch,scale,commit,export,alpha,bridge,publish,volumes", GNU: true},
	)
	return c
}

func helmSpec() *Spec {
	h := &Spec{Name: "helm", GNU: true, Persistent: true, Notation: ("n,namespace= kube-context= kubeconfig= debug burst-limit= kube-apiserver= kube-as-group= kube-as-user= kube-ca-file= kube-insecure-skip-tls-verify kube-tls-server-name= kube-token= qps= registry-config= repository-cache= repository-config=")}
	h.Subs = subs(&Spec{Name: "uninstall,delete,del,un", GNU: true}, &Spec{Name: "rollback,upgrade,install,list,ls,status,get,history,template,lint,repo,search,show,pull,push,package,dependency,plugin,env,version,test,create,verify", GNU: true})
	return h
}

func terraformSpec() *Spec {
	t := &Spec{Name: "terraform", SingleDash: true, Notation: ("chdir= help version")}
	t.Subs = subs(&Spec{Name: "destroy,apply,import,taint,untaint,state,workspace,force-unlock,refresh", SingleDash: true, Notation: "auto-approve input= lock= lock-timeout= no-color parallelism= refresh= replace= target= var= var-file= state= state-out= backup= compact-warnings json destroy refresh-only out="}, &Spec{Name: "plan,init,validate,fmt,providers,graph,version,console,get,login,logout,test,metadata,modules", SingleDash: true},
		&Spec{Name: "show,output", SingleDash: true, Notation: "json raw no-color state="})
	return t
}

// readChmod separates mode operands that look like options (chmod -x f).
func readChmod(s *Spec, args []wordT, pattern bool) *Cmd {
	var opts, modes []wordT
	for _, w := range args {
		if t, ok := w.Static(); ok && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Trim(t[1:], "rwxXstugoa=+,-01234567") == "" && !onlyOpts(t[1:], "cfvR") {
			modes = append(modes, w)
			continue
		}
		opts = append(opts, w)
	}
	c := &Cmd{Spec: s, DashDash: -1}
	s.read(c, opts, pattern)
	c.Args = append(modes, c.Args...)
	return c
}

func onlyOpts(s, letters string) bool { return strings.Trim(s, letters) == "" }

// readKill reads kill, whose -SIGNAL and -s SIGNAL name the same thing.
func readKill(s *Spec, args []wordT, pattern bool) *Cmd {
	c := &Cmd{Spec: s, DashDash: -1}
	var rest []wordT
	for i, w := range args {
		t, ok := w.Static()
		if ok && len(t) > 1 && t[0] == '-' && t[1] != '-' && !word.IsDigits(t[1:]) && s.Opt(t) == "" {
			v := word.FromLit(t[1:])
			c.Opts = append(c.Opts, Opt{Name: "--signal", Value: &v, Known: true})
			continue
		}
		if ok && t == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		rest = append(rest, w)
	}
	s.read(c, rest, pattern)
	for i, o := range c.Opts {
		if o.Name == "--signal" && o.Value != nil {
			if t, ok := o.Value.Static(); ok {
				v := word.FromLit(signalName(t))
				c.Opts[i].Value = &v
			}
		}
	}
	return c
}

func signalNumbers(name string) (string, bool) {
	switch name {
	case "1":
		return "HUP", true
	case "2":
		return "INT", true
	case "3":
		return "QUIT", true
	case "6":
		return "ABRT", true
	case "9":
		return "KILL", true
	case "15":
		return "TERM", true
	case "18":
		return "CONT", true
	case "19":
		return "STOP", true
	case "10":
		return "USR1", true
	case "12":
		return "USR2", true
	}
	return "", false
}

func signalName(s string) string {
	s = strings.ToUpper(strings.TrimPrefix(strings.ToUpper(s), "SIG"))
	if n, ok := signalNumbers(s); ok {
		return n
	}
	return s
}

// readDD reads dd's key=value operands as options named "if", "of", ….
func readDD(s *Spec, args []wordT, pattern bool) *Cmd {
	c := &Cmd{Spec: s, DashDash: -1}
	for _, w := range args {
		k, v, ok := w.Cut("=")
		if !ok {
			if !w.IsStatic() {
				c.Open = true
			}
			c.Args = append(c.Args, w)
			continue
		}
		c.Opts = append(c.Opts, Opt{Name: k, Value: &v, Known: true})
	}
	return c
}

const unzipOpts = "d= x l t z Z c p f u v n o j C D X K M q qq a aa b B L V s I= O= P="

// readUnzip reads unzip, whose -d takes a directory and -x starts a list of
// excluded names.
func readUnzip(s *Spec, args []wordT, pattern bool) *Cmd {
	// unzip reads -d DIR and -x after the archive too.
	sp := &Spec{Name: "unzip", GNU: true, Notation: unzipOpts}
	c := &Cmd{DashDash: -1}
	sp.read(c, args, pattern)
	c.Spec = s
	return c
}

// curl's options may follow URLs.
// curlSpec is every option of curl 8.22's src/tool_getparam.c (a superset
// of older releases': 7.88's --help all is in it), with --no-NAME for each
// boolean. An option not here (--expand-NAME, a newer release's) makes the
// command's effects unknown (Complete).
var curlSpec = &Spec{Name: "curl", GNU: true, Complete: true, Notation: ("abstract-unix-socket= alpn no-alpn alt-svc= anyauth a,append no-append aws-sigv4= basic no-basic " +
	"N,buffer no-buffer ca-native no-ca-native cacert= capath= E,cert= cert-status no-cert-status " +
	"cert-type= ciphers= clobber no-clobber compressed no-compressed compressed-ssh no-compressed-ssh " +
	"K,config= connect-timeout= connect-to= C,continue-at= b,cookie= c,cookie-jar= create-dirs " +
	"no-create-dirs create-file-mode= crlf no-crlf crlfile= curves= d,data= data-ascii= data-binary= " +
	"data-raw= data-urlencode= delegation= digest no-digest q,disable no-disable disable-eprt " +
	"no-disable-eprt disable-epsv no-disable-epsv disallow-username-in-url no-disallow-username-in-url " +
	"dns-interface= dns-ipv4-addr= dns-ipv6-addr= dns-servers= doh-cert-status no-doh-cert-status " +
	"doh-insecure no-doh-insecure doh-url= dump-ca-embed D,dump-header= ech= egd-file= engine= eprt " +
	"no-eprt epsv no-epsv etag-compare= etag-save= expect100-timeout= f,fail no-fail fail-early " +
	"no-fail-early fail-with-body no-fail-with-body false-start no-false-start follow no-follow F,form= " +
	"form-escape no-form-escape form-string= ftp-account= ftp-alternative-to-user= ftp-create-dirs " +
	"no-ftp-create-dirs ftp-method= ftp-pasv P,ftp-port= ftp-pret no-ftp-pret ftp-skip-pasv-ip " +
	"no-ftp-skip-pasv-ip ftp-ssl no-ftp-ssl ftp-ssl-ccc no-ftp-ssl-ccc ftp-ssl-ccc-mode= ftp-ssl-control " +
	"no-ftp-ssl-control ftp-ssl-reqd no-ftp-ssl-reqd G,get no-get g,globoff no-globoff " +
	"happy-eyeballs-timeout-ms= haproxy-clientip= haproxy-protocol no-haproxy-protocol I,head no-head " +
	"H,header= h,help= hostpubmd5= hostpubsha256= hsts= http0.9 no-http0.9 0,http1.0 http1.1 http2 " +
	"http2-prior-knowledge http3 http3-only httpsig-algo= httpsig-headers= httpsig-key= httpsig-keyid= " +
	"ignore-content-length no-ignore-content-length include no-include k,insecure no-insecure interface= " +
	"ip-tos= ipfs-gateway= 4,ipv4 6,ipv6 json= j,junk-session-cookies no-junk-session-cookies keepalive " +
	"no-keepalive keepalive-cnt= keepalive-time= key= key-type= knownhosts= krb= krb4= libcurl= " +
	"limit-rate= l,list-only no-list-only local-port= L,location no-location location-trusted " +
	"no-location-trusted login-options= mail-auth= mail-from= mail-rcpt= mail-rcpt-allowfails " +
	"no-mail-rcpt-allowfails M,manual no-manual max-filesize= max-redirs= m,max-time= metalink " +
	"no-metalink mptcp no-mptcp negotiate no-negotiate n,netrc no-netrc netrc-file= netrc-optional " +
	"no-netrc-optional :,next noproxy= npn no-npn ntlm no-ntlm ntlm-wb no-ntlm-wb oauth2-bearer= out-null " +
	"no-out-null o,output= output-dir= Z,parallel no-parallel parallel-immediate no-parallel-immediate " +
	"parallel-max= parallel-max-host= pass= path-as-is no-path-as-is pinnedpubkey= post301 no-post301 " +
	"post302 no-post302 post303 no-post303 preproxy= #,progress-bar no-progress-bar progress-meter " +
	"no-progress-meter proto= proto-default= proto-redir= x,proxy= proxy-anyauth no-proxy-anyauth " +
	"proxy-basic no-proxy-basic proxy-ca-native no-proxy-ca-native proxy-cacert= proxy-capath= " +
	"proxy-cert= proxy-cert-type= proxy-ciphers= proxy-crlfile= proxy-digest no-proxy-digest " +
	"proxy-header= proxy-http2 no-proxy-http2 proxy-http3 no-proxy-http3 proxy-insecure no-proxy-insecure " +
	"proxy-key= proxy-key-type= proxy-negotiate no-proxy-negotiate proxy-ntlm no-proxy-ntlm proxy-pass= " +
	"proxy-pinnedpubkey= proxy-service-name= proxy-ssl-allow-beast no-proxy-ssl-allow-beast " +
	"proxy-ssl-auto-client-cert no-proxy-ssl-auto-client-cert proxy-tls13-ciphers= proxy-tlsauthtype= " +
	"proxy-tlspassword= proxy-tlsuser= proxy-tlsv1 U,proxy-user= proxy1.0= p,proxytunnel no-proxytunnel " +
	"pubkey= Q,quote= random-file= r,range= rate= raw no-raw e,referer= J,remote-header-name " +
	"no-remote-header-name O,remote-name no-remote-name remote-name-all no-remote-name-all R,remote-time " +
	"no-remote-time remove-on-error no-remove-on-error X,request= request-target= resolve= retry= " +
	"retry-all-errors no-retry-all-errors retry-connrefused no-retry-connrefused retry-delay= " +
	"retry-max-time= sasl-authzid= sasl-ir no-sasl-ir service-name= sessionid no-sessionid S,show-error " +
	"no-show-error i,show-headers no-show-headers sigalgs= s,silent no-silent skip-existing " +
	"no-skip-existing socks4= socks4a= socks5= socks5-basic no-socks5-basic socks5-gssapi " +
	"no-socks5-gssapi socks5-gssapi-nec no-socks5-gssapi-nec socks5-gssapi-service= socks5-hostname= " +
	"Y,speed-limit= y,speed-time= ssl no-ssl ssl-allow-beast no-ssl-allow-beast ssl-auto-client-cert " +
	"no-ssl-auto-client-cert ssl-no-revoke no-ssl-no-revoke ssl-reqd no-ssl-reqd ssl-revoke-best-effort " +
	"no-ssl-revoke-best-effort ssl-sessions= 2,sslv2 3,sslv3 stderr= styled-output no-styled-output " +
	"suppress-connect-headers no-suppress-connect-headers tcp-fastopen no-tcp-fastopen tcp-nodelay " +
	"no-tcp-nodelay t,telnet-option= test-duphandle no-test-duphandle test-event no-test-event " +
	"tftp-blksize= tftp-no-options no-tftp-no-options z,time-cond= tls-earlydata no-tls-earlydata " +
	"tls-max= tls13-ciphers= tlsauthtype= tlspassword= tlsuser= 1,tlsv1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 " +
	"tr-encoding no-tr-encoding trace= trace-ascii= trace-config= trace-ids no-trace-ids trace-time " +
	"no-trace-time unix-socket= T,upload-file= upload-flags= url= url-query= B,use-ascii no-use-ascii " +
	"u,user= A,user-agent= variable= v,verbose no-verbose V,version no-version vlan-priority= wdebug " +
	"no-wdebug w,write-out= xattr no-xattr")}
