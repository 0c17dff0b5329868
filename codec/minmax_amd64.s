#include "textflag.h"

// func minMax4AVX2(m []int64, lo, hi *[4]int64)
//
// Lane-wise minima and maxima of m, len(m) a multiple of 4 and at least 4:
// lo[j] and hi[j] are the least and greatest of m[j], m[j+4], m[j+8], ...
// Requires AVX2 (VPCMPGTQ on 256-bit registers).
TEXT ·minMax4AVX2(SB), NOSPLIT, $0-40
	MOVQ    m_base+0(FP), SI
	MOVQ    m_len+8(FP), CX
	MOVQ    lo+24(FP), DI
	MOVQ    hi+32(FP), DX
	VMOVDQU (SI), Y0          // running minima
	VMOVDQU Y0, Y1            // running maxima
	MOVQ    $4, BX

loop:
	CMPQ    BX, CX
	JGE     done
	VMOVDQU (SI)(BX*8), Y2
	VPCMPGTQ Y2, Y0, Y3       // Y3 = Y0 > Y2
	VBLENDVPD Y3, Y2, Y0, Y0  // Y0 = Y3 ? Y2 : Y0
	VPCMPGTQ Y1, Y2, Y4       // Y4 = Y2 > Y1
	VBLENDVPD Y4, Y2, Y1, Y1  // Y1 = Y4 ? Y2 : Y1
	ADDQ    $4, BX
	JMP     loop

done:
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, (DX)
	VZEROUPPER
	RET

// func hasAVX2() bool: AVX usable (see hasAVX) and CPUID.(7,0):EBX bit 5.
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	MOVB    $0, ret+0(FP)
	MOVL    $1, AX
	XORL    CX, CX
	CPUID
	ANDL    $0x18000000, CX
	CMPL    CX, $0x18000000
	JNE     no
	XORL    CX, CX
	XGETBV
	ANDL    $6, AX
	CMPL    AX, $6
	JNE     no
	MOVL    $7, AX
	XORL    CX, CX
	CPUID
	ANDL    $0x20, BX
	JZ      no
	MOVB    $1, ret+0(FP)
no:
	RET
