.LBB0_8:
# LLVM-MCA-RISCV-LMUL M1
# LLVM-MCA-RISCV-SEW E32
	vle32.v	v24, (a2)
	flw	fa4, -28(t1)
	vle32.v	v25, (t0)
	flw	fa3, -24(t1)
	flw	fa2, -20(t1)
	flw	fa1, -16(t1)
	vfmacc.vf	v22, fa4, v24
	vfmacc.vf	v23, fa4, v25
	vfmacc.vf	v16, fa3, v24
	vfmacc.vf	v21, fa3, v25
	flw	fa4, -12(t1)
	vfmacc.vf	v15, fa2, v24
	vfmacc.vf	v20, fa2, v25
	flw	fa3, -8(t1)
	vfmacc.vf	v14, fa1, v24
	vfmacc.vf	v19, fa1, v25
	flw	fa2, -4(t1)
	flw	fa1, 0(t1)
	vfmacc.vf	v12, fa4, v24
	vfmacc.vf	v18, fa4, v25
	vfmacc.vf	v9, fa3, v24
	vfmacc.vf	v17, fa3, v25
	vfmacc.vf	v8, fa2, v24
	vfmacc.vf	v13, fa2, v25
	vfmacc.vf	v11, fa1, v24
	vfmacc.vf	v10, fa1, v25
	addi	t1, t1, 32
	addi	t0, t0, 64
	addi	a2, a2, 64
	bne	t1, s5, .LBB0_8
