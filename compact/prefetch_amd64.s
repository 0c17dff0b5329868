#include "textflag.h"

// func prefetchAll(addrs []uintptr)
//
// PREFETCHT0 of each address: hints, which fault nothing and do not
// hold up the instructions after them as loads do.
TEXT ·prefetchAll(SB), NOSPLIT, $0-24
	MOVQ addrs_base+0(FP), SI
	MOVQ addrs_len+8(FP), CX
	TESTQ CX, CX
	JEQ done
loop:
	MOVQ (SI), AX
	PREFETCHT0 (AX)
	ADDQ $8, SI
	DECQ CX
	JNE loop
done:
	RET
