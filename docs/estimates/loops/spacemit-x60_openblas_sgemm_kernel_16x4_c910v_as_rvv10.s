M16x4_MAINLOOP:
# LLVM-MCA-RISCV-LMUL M1
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vv v16, v8, v0
  vle32.v v4, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v8, v1
  vle32.v v5, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v8, v2
  vle32.v v6, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v8, v3
  vle32.v v7, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v9, v0
  flw ft4, (a1)
  vfmacc.vv v21, v9, v1
  flw ft5, (t1)
  vfmacc.vv v22, v9, v2
  flw ft6, (t2)
  vfmacc.vv v23, v9, v3
  flw ft7, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v10, v0
  addi t1, t1, 4*4
  vfmacc.vv v25, v10, v1
  vfmv.v.f v12, ft4
  vfmacc.vv v26, v10, v2
  addi t2, t2, 4*4
  vfmacc.vv v27, v10, v3
  vfmv.v.f v13, ft5
  vfmacc.vv v28, v11, v0
  addi t3, t3, 4*4
  vfmacc.vv v29, v11, v1
  vfmv.v.f v14, ft6
  vfmacc.vv v30, v11, v2
  vfmacc.vv v31, v11, v3
  vfmv.v.f v15, ft7
  vfmacc.vv v16, v12, v4
  vle32.v v0, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v12, v5
  vle32.v v1, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v12, v6
  vle32.v v2, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v12, v7
  vle32.v v3, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v13, v4
  flw ft0, (a1)
  vfmacc.vv v21, v13, v5
  flw ft1, (t1)
  vfmacc.vv v22, v13, v6
  flw ft2, (t2)
  vfmacc.vv v23, v13, v7
  flw ft3, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v14, v4
  addi t1, t1, 4*4
  vfmacc.vv v25, v14, v5
  vfmv.v.f v8, ft0
  vfmacc.vv v26, v14, v6
  addi t2, t2, 4*4
  vfmacc.vv v27, v14, v7
  vfmv.v.f v9, ft1
  vfmacc.vv v28, v15, v4
  addi t3, t3, 4*4
  vfmacc.vv v29, v15, v5
  vfmv.v.f v10, ft2
  vfmacc.vv v30, v15, v6
  vfmacc.vv v31, v15, v7
  vfmv.v.f v11, ft3
  vfmacc.vv v16, v8, v0
  vle32.v v4, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v8, v1
  vle32.v v5, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v8, v2
  vle32.v v6, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v8, v3
  vle32.v v7, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v9, v0
  flw ft4, (a1)
  vfmacc.vv v21, v9, v1
  flw ft5, (t1)
  vfmacc.vv v22, v9, v2
  flw ft6, (t2)
  vfmacc.vv v23, v9, v3
  flw ft7, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v10, v0
  addi t1, t1, 4*4
  vfmacc.vv v25, v10, v1
  vfmv.v.f v12, ft4
  vfmacc.vv v26, v10, v2
  addi t2, t2, 4*4
  vfmacc.vv v27, v10, v3
  vfmv.v.f v13, ft5
  vfmacc.vv v28, v11, v0
  addi t3, t3, 4*4
  vfmacc.vv v29, v11, v1
  vfmv.v.f v14, ft6
  vfmacc.vv v30, v11, v2
  vfmacc.vv v31, v11, v3
  vfmv.v.f v15, ft7
  vfmacc.vv v16, v12, v4
  vle32.v v0, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v12, v5
  vle32.v v1, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v12, v6
  vle32.v v2, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v12, v7
  vle32.v v3, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v13, v4
  flw ft0, (a1)
  vfmacc.vv v21, v13, v5
  flw ft1, (t1)
  vfmacc.vv v22, v13, v6
  flw ft2, (t2)
  vfmacc.vv v23, v13, v7
  flw ft3, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v14, v4
  addi t1, t1, 4*4
  vfmacc.vv v25, v14, v5
  vfmv.v.f v8, ft0
  vfmacc.vv v26, v14, v6
  addi t2, t2, 4*4
  vfmacc.vv v27, v14, v7
  vfmv.v.f v9, ft1
  vfmacc.vv v28, v15, v4
  addi t3, t3, 4*4
  vfmacc.vv v29, v15, v5
  vfmv.v.f v10, ft2
  vfmacc.vv v30, v15, v6
  vfmacc.vv v31, v15, v7
  vfmv.v.f v11, ft3
  vfmacc.vv v16, v8, v0
  vle32.v v4, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v8, v1
  vle32.v v5, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v8, v2
  vle32.v v6, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v8, v3
  vle32.v v7, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v9, v0
  flw ft4, (a1)
  vfmacc.vv v21, v9, v1
  flw ft5, (t1)
  vfmacc.vv v22, v9, v2
  flw ft6, (t2)
  vfmacc.vv v23, v9, v3
  flw ft7, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v10, v0
  addi t1, t1, 4*4
  vfmacc.vv v25, v10, v1
  vfmv.v.f v12, ft4
  vfmacc.vv v26, v10, v2
  addi t2, t2, 4*4
  vfmacc.vv v27, v10, v3
  vfmv.v.f v13, ft5
  vfmacc.vv v28, v11, v0
  addi t3, t3, 4*4
  vfmacc.vv v29, v11, v1
  vfmv.v.f v14, ft6
  vfmacc.vv v30, v11, v2
  vfmacc.vv v31, v11, v3
  vfmv.v.f v15, ft7
  vfmacc.vv v16, v12, v4
  vle32.v v0, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v12, v5
  vle32.v v1, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v12, v6
  vle32.v v2, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v12, v7
  vle32.v v3, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v13, v4
  flw ft0, (a1)
  vfmacc.vv v21, v13, v5
  flw ft1, (t1)
  vfmacc.vv v22, v13, v6
  flw ft2, (t2)
  vfmacc.vv v23, v13, v7
  flw ft3, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v14, v4
  addi t1, t1, 4*4
  vfmacc.vv v25, v14, v5
  vfmv.v.f v8, ft0
  vfmacc.vv v26, v14, v6
  addi t2, t2, 4*4
  vfmacc.vv v27, v14, v7
  vfmv.v.f v9, ft1
  vfmacc.vv v28, v15, v4
  addi t3, t3, 4*4
  vfmacc.vv v29, v15, v5
  vfmv.v.f v10, ft2
  vfmacc.vv v30, v15, v6
  vfmacc.vv v31, v15, v7
  vfmv.v.f v11, ft3
  vfmacc.vv v16, v8, v0
  vle32.v v4, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v8, v1
  vle32.v v5, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v8, v2
  vle32.v v6, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v8, v3
  vle32.v v7, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v9, v0
  flw ft4, (a1)
  vfmacc.vv v21, v9, v1
  flw ft5, (t1)
  vfmacc.vv v22, v9, v2
  flw ft6, (t2)
  vfmacc.vv v23, v9, v3
  flw ft7, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v10, v0
  addi t1, t1, 4*4
  vfmacc.vv v25, v10, v1
  vfmv.v.f v12, ft4
  vfmacc.vv v26, v10, v2
  addi t2, t2, 4*4
  vfmacc.vv v27, v10, v3
  vfmv.v.f v13, ft5
  vfmacc.vv v28, v11, v0
  addi t3, t3, 4*4
  vfmacc.vv v29, v11, v1
  vfmv.v.f v14, ft6
  vfmacc.vv v30, v11, v2
  vfmacc.vv v31, v11, v3
  vfmv.v.f v15, ft7
  vfmacc.vv v16, v12, v4
  vle32.v v0, (a0)
  addi a0, a0, 16*4
  vfmacc.vv v17, v12, v5
  vle32.v v1, (t4)
  addi t4, t4, 16*4
  vfmacc.vv v18, v12, v6
  vle32.v v2, (t5)
  addi t5, t5, 16*4
  vfmacc.vv v19, v12, v7
  vle32.v v3, (t6)
  addi t6, t6, 16*4
  vfmacc.vv v20, v13, v4
  flw ft0, (a1)
  vfmacc.vv v21, v13, v5
  flw ft1, (t1)
  vfmacc.vv v22, v13, v6
  flw ft2, (t2)
  vfmacc.vv v23, v13, v7
  flw ft3, (t3)
  addi a1, a1, 4*4
  vfmacc.vv v24, v14, v4
  addi t1, t1, 4*4
  vfmacc.vv v25, v14, v5
  vfmv.v.f v8, ft0
  vfmacc.vv v26, v14, v6
  addi t2, t2, 4*4
  vfmacc.vv v27, v14, v7
  vfmv.v.f v9, ft1
  vfmacc.vv v28, v15, v4
  addi t3, t3, 4*4
  vfmacc.vv v29, v15, v5
  vfmv.v.f v10, ft2
  vfmacc.vv v30, v15, v6
  vfmacc.vv v31, v15, v7
  vfmv.v.f v11, ft3
  addi t0, t0, -1
  bgtz t0, M16x4_MAINLOOP
