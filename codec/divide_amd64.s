#include "textflag.h"

// func divPow10SSE2(dst []float64, ms []int64, p float64, sum bool)
//
// Four values per iteration in two DIVPD chains. XORPS before each
// CVTSQ2SD breaks its false dependency on the register's old contents
// (the previous division's result).
TEXT ·divPow10SSE2(SB), NOSPLIT, $0-57
	MOVQ    dst_base+0(FP), DI
	MOVQ    ms_base+24(FP), SI
	MOVQ    ms_len+32(FP), CX
	MOVSD   p+48(FP), X4
	UNPCKLPD X4, X4
	MOVBLZX sum+56(FP), AX
	XORQ    R8, R8            // running sum
	XORQ    BX, BX            // index
	TESTQ   AX, AX
	JZ      plain4

sum4:
	LEAQ    4(BX), DX
	CMPQ    DX, CX
	JGT     sum1
	ADDQ    (SI)(BX*8), R8
	XORPS   X0, X0
	CVTSQ2SD R8, X0
	ADDQ    8(SI)(BX*8), R8
	XORPS   X1, X1
	CVTSQ2SD R8, X1
	ADDQ    16(SI)(BX*8), R8
	XORPS   X2, X2
	CVTSQ2SD R8, X2
	ADDQ    24(SI)(BX*8), R8
	XORPS   X3, X3
	CVTSQ2SD R8, X3
	UNPCKLPD X1, X0
	UNPCKLPD X3, X2
	DIVPD   X4, X0
	DIVPD   X4, X2
	MOVUPD  X0, (DI)(BX*8)
	MOVUPD  X2, 16(DI)(BX*8)
	MOVQ    DX, BX
	JMP     sum4

sum1:
	CMPQ    BX, CX
	JGE     done
	ADDQ    (SI)(BX*8), R8
	XORPS   X0, X0
	CVTSQ2SD R8, X0
	DIVSD   X4, X0
	MOVSD   X0, (DI)(BX*8)
	INCQ    BX
	JMP     sum1

plain4:
	LEAQ    4(BX), DX
	CMPQ    DX, CX
	JGT     plain1
	XORPS   X0, X0
	CVTSQ2SD (SI)(BX*8), X0
	XORPS   X1, X1
	CVTSQ2SD 8(SI)(BX*8), X1
	XORPS   X2, X2
	CVTSQ2SD 16(SI)(BX*8), X2
	XORPS   X3, X3
	CVTSQ2SD 24(SI)(BX*8), X3
	UNPCKLPD X1, X0
	UNPCKLPD X3, X2
	DIVPD   X4, X0
	DIVPD   X4, X2
	MOVUPD  X0, (DI)(BX*8)
	MOVUPD  X2, 16(DI)(BX*8)
	MOVQ    DX, BX
	JMP     plain4

plain1:
	CMPQ    BX, CX
	JGE     done
	XORPS   X0, X0
	CVTSQ2SD (SI)(BX*8), X0
	DIVSD   X4, X0
	MOVSD   X0, (DI)(BX*8)
	INCQ    BX
	JMP     plain1

done:
	RET

// func divPow10AVX(dst []float64, ms []int64, p float64, sum bool)
//
// Eight values per iteration in two VDIVPD (4 lanes) chains; the
// conversions take their upper bits from zeroed X7, not from their
// destination's old contents. Requires AVX.
TEXT ·divPow10AVX(SB), NOSPLIT, $0-57
	MOVQ    dst_base+0(FP), DI
	MOVQ    ms_base+24(FP), SI
	MOVQ    ms_len+32(FP), CX
	VBROADCASTSD p+48(FP), Y4
	VXORPD  X7, X7, X7
	MOVBLZX sum+56(FP), AX
	XORQ    R8, R8            // running sum
	XORQ    BX, BX            // index
	TESTQ   AX, AX
	JZ      plain8

sum8:
	LEAQ    8(BX), DX
	CMPQ    DX, CX
	JGT     sum1
	ADDQ    (SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X0
	ADDQ    8(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X1
	ADDQ    16(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X2
	ADDQ    24(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X3
	ADDQ    32(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X8
	ADDQ    40(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X9
	ADDQ    48(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X10
	ADDQ    56(SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X11
	VUNPCKLPD X1, X0, X0
	VUNPCKLPD X3, X2, X2
	VUNPCKLPD X9, X8, X8
	VUNPCKLPD X11, X10, X10
	VINSERTF128 $1, X2, Y0, Y0
	VINSERTF128 $1, X10, Y8, Y8
	VDIVPD  Y4, Y0, Y0
	VDIVPD  Y4, Y8, Y8
	VMOVUPD Y0, (DI)(BX*8)
	VMOVUPD Y8, 32(DI)(BX*8)
	MOVQ    DX, BX
	JMP     sum8

sum1:
	CMPQ    BX, CX
	JGE     done
	ADDQ    (SI)(BX*8), R8
	VCVTSI2SDQ R8, X7, X0
	VDIVSD  X4, X0, X0
	VMOVSD  X0, (DI)(BX*8)
	INCQ    BX
	JMP     sum1

plain8:
	LEAQ    8(BX), DX
	CMPQ    DX, CX
	JGT     plain1
	VCVTSI2SDQ (SI)(BX*8), X7, X0
	VCVTSI2SDQ 8(SI)(BX*8), X7, X1
	VCVTSI2SDQ 16(SI)(BX*8), X7, X2
	VCVTSI2SDQ 24(SI)(BX*8), X7, X3
	VCVTSI2SDQ 32(SI)(BX*8), X7, X8
	VCVTSI2SDQ 40(SI)(BX*8), X7, X9
	VCVTSI2SDQ 48(SI)(BX*8), X7, X10
	VCVTSI2SDQ 56(SI)(BX*8), X7, X11
	VUNPCKLPD X1, X0, X0
	VUNPCKLPD X3, X2, X2
	VUNPCKLPD X9, X8, X8
	VUNPCKLPD X11, X10, X10
	VINSERTF128 $1, X2, Y0, Y0
	VINSERTF128 $1, X10, Y8, Y8
	VDIVPD  Y4, Y0, Y0
	VDIVPD  Y4, Y8, Y8
	VMOVUPD Y0, (DI)(BX*8)
	VMOVUPD Y8, 32(DI)(BX*8)
	MOVQ    DX, BX
	JMP     plain8

plain1:
	CMPQ    BX, CX
	JGE     done
	VCVTSI2SDQ (SI)(BX*8), X7, X0
	VDIVSD  X4, X0, X0
	VMOVSD  X0, (DI)(BX*8)
	INCQ    BX
	JMP     plain1

done:
	VZEROUPPER
	RET

// func hasAVX() bool: CPUID.1:ECX reports AVX and OSXSAVE, and XCR0 says
// the OS saves the XMM and YMM state.
TEXT ·hasAVX(SB), NOSPLIT, $0-1
	MOVB    $0, ret+0(FP)
	MOVL    $1, AX
	XORL    CX, CX
	CPUID
	ANDL    $0x18000000, CX   // bit 27 OSXSAVE, bit 28 AVX
	CMPL    CX, $0x18000000
	JNE     no
	XORL    CX, CX
	XGETBV
	ANDL    $6, AX
	CMPL    AX, $6
	JNE     no
	MOVB    $1, ret+0(FP)
no:
	RET
