mca_loop:
  fmla v16.4s, v0.4s, v8.s[0]
  fmla v17.4s, v1.4s, v8.s[0]
  ldp q4, q5, [x16], #32
  fmla v18.4s, v2.4s, v8.s[0]
  fmla v19.4s, v3.4s, v8.s[0]
  fmla v20.4s, v0.4s, v9.s[0]
  fmla v21.4s, v1.4s, v9.s[0]
  ldp s12, s13, [x11], #8
  fmla v22.4s, v2.4s, v9.s[0]
  fmla v23.4s, v3.4s, v9.s[0]
  ldp s14, s15, [x11], #8
  fmla v24.4s, v0.4s, v10.s[0]
  fmla v25.4s, v1.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560 +64]
  fmla v26.4s, v2.4s, v10.s[0]
  fmla v27.4s, v3.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560]
  fmla v28.4s, v0.4s, v11.s[0]
  fmla v29.4s, v1.4s, v11.s[0]
  ldp q6, q7, [x16], #32
  fmla v30.4s, v2.4s, v11.s[0]
  fmla v31.4s, v3.4s, v11.s[0]
  fmla v16.4s, v4.4s, v12.s[0]
  fmla v17.4s, v5.4s, v12.s[0]
  ldp q0, q1, [x16], #32
  fmla v18.4s, v6.4s, v12.s[0]
  fmla v19.4s, v7.4s, v12.s[0]
  fmla v20.4s, v4.4s, v13.s[0]
  fmla v21.4s, v5.4s, v13.s[0]
  ldp s8, s9, [x11], #8
  fmla v22.4s, v6.4s, v13.s[0]
  fmla v23.4s, v7.4s, v13.s[0]
  ldp s10, s11, [x11], #8
  fmla v24.4s, v4.4s, v14.s[0]
  fmla v25.4s, v5.4s, v14.s[0]
  prfm PLDL1KEEP, [x11, #224]
  fmla v26.4s, v6.4s, v14.s[0]
  fmla v27.4s, v7.4s, v14.s[0]
  ldp q2, q3, [x16], #32
  fmla v28.4s, v4.4s, v15.s[0]
  fmla v29.4s, v5.4s, v15.s[0]
  fmla v30.4s, v6.4s, v15.s[0]
  fmla v31.4s, v7.4s, v15.s[0]
  fmla v16.4s, v0.4s, v8.s[0]
  fmla v17.4s, v1.4s, v8.s[0]
  ldp q4, q5, [x16], #32
  fmla v18.4s, v2.4s, v8.s[0]
  fmla v19.4s, v3.4s, v8.s[0]
  fmla v20.4s, v0.4s, v9.s[0]
  fmla v21.4s, v1.4s, v9.s[0]
  ldp s12, s13, [x11], #8
  fmla v22.4s, v2.4s, v9.s[0]
  fmla v23.4s, v3.4s, v9.s[0]
  ldp s14, s15, [x11], #8
  fmla v24.4s, v0.4s, v10.s[0]
  fmla v25.4s, v1.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560 +64]
  fmla v26.4s, v2.4s, v10.s[0]
  fmla v27.4s, v3.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560]
  fmla v28.4s, v0.4s, v11.s[0]
  fmla v29.4s, v1.4s, v11.s[0]
  ldp q6, q7, [x16], #32
  fmla v30.4s, v2.4s, v11.s[0]
  fmla v31.4s, v3.4s, v11.s[0]
  fmla v16.4s, v4.4s, v12.s[0]
  fmla v17.4s, v5.4s, v12.s[0]
  ldp q0, q1, [x16], #32
  fmla v18.4s, v6.4s, v12.s[0]
  fmla v19.4s, v7.4s, v12.s[0]
  fmla v20.4s, v4.4s, v13.s[0]
  fmla v21.4s, v5.4s, v13.s[0]
  ldp s8, s9, [x11], #8
  fmla v22.4s, v6.4s, v13.s[0]
  fmla v23.4s, v7.4s, v13.s[0]
  ldp s10, s11, [x11], #8
  fmla v24.4s, v4.4s, v14.s[0]
  fmla v25.4s, v5.4s, v14.s[0]
  prfm PLDL1KEEP, [x11, #224]
  fmla v26.4s, v6.4s, v14.s[0]
  fmla v27.4s, v7.4s, v14.s[0]
  ldp q2, q3, [x16], #32
  fmla v28.4s, v4.4s, v15.s[0]
  fmla v29.4s, v5.4s, v15.s[0]
  fmla v30.4s, v6.4s, v15.s[0]
  fmla v31.4s, v7.4s, v15.s[0]
  fmla v16.4s, v0.4s, v8.s[0]
  fmla v17.4s, v1.4s, v8.s[0]
  ldp q4, q5, [x16], #32
  fmla v18.4s, v2.4s, v8.s[0]
  fmla v19.4s, v3.4s, v8.s[0]
  fmla v20.4s, v0.4s, v9.s[0]
  fmla v21.4s, v1.4s, v9.s[0]
  ldp s12, s13, [x11], #8
  fmla v22.4s, v2.4s, v9.s[0]
  fmla v23.4s, v3.4s, v9.s[0]
  ldp s14, s15, [x11], #8
  fmla v24.4s, v0.4s, v10.s[0]
  fmla v25.4s, v1.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560 +64]
  fmla v26.4s, v2.4s, v10.s[0]
  fmla v27.4s, v3.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560]
  fmla v28.4s, v0.4s, v11.s[0]
  fmla v29.4s, v1.4s, v11.s[0]
  ldp q6, q7, [x16], #32
  fmla v30.4s, v2.4s, v11.s[0]
  fmla v31.4s, v3.4s, v11.s[0]
  fmla v16.4s, v4.4s, v12.s[0]
  fmla v17.4s, v5.4s, v12.s[0]
  ldp q0, q1, [x16], #32
  fmla v18.4s, v6.4s, v12.s[0]
  fmla v19.4s, v7.4s, v12.s[0]
  fmla v20.4s, v4.4s, v13.s[0]
  fmla v21.4s, v5.4s, v13.s[0]
  ldp s8, s9, [x11], #8
  fmla v22.4s, v6.4s, v13.s[0]
  fmla v23.4s, v7.4s, v13.s[0]
  ldp s10, s11, [x11], #8
  fmla v24.4s, v4.4s, v14.s[0]
  fmla v25.4s, v5.4s, v14.s[0]
  prfm PLDL1KEEP, [x11, #224]
  fmla v26.4s, v6.4s, v14.s[0]
  fmla v27.4s, v7.4s, v14.s[0]
  ldp q2, q3, [x16], #32
  fmla v28.4s, v4.4s, v15.s[0]
  fmla v29.4s, v5.4s, v15.s[0]
  fmla v30.4s, v6.4s, v15.s[0]
  fmla v31.4s, v7.4s, v15.s[0]
  fmla v16.4s, v0.4s, v8.s[0]
  fmla v17.4s, v1.4s, v8.s[0]
  ldp q4, q5, [x16], #32
  fmla v18.4s, v2.4s, v8.s[0]
  fmla v19.4s, v3.4s, v8.s[0]
  fmla v20.4s, v0.4s, v9.s[0]
  fmla v21.4s, v1.4s, v9.s[0]
  ldp s12, s13, [x11], #8
  fmla v22.4s, v2.4s, v9.s[0]
  fmla v23.4s, v3.4s, v9.s[0]
  ldp s14, s15, [x11], #8
  fmla v24.4s, v0.4s, v10.s[0]
  fmla v25.4s, v1.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560 +64]
  fmla v26.4s, v2.4s, v10.s[0]
  fmla v27.4s, v3.4s, v10.s[0]
  prfm PLDL1KEEP, [x16, #2560]
  fmla v28.4s, v0.4s, v11.s[0]
  fmla v29.4s, v1.4s, v11.s[0]
  ldp q6, q7, [x16], #32
  fmla v30.4s, v2.4s, v11.s[0]
  fmla v31.4s, v3.4s, v11.s[0]
  fmla v16.4s, v4.4s, v12.s[0]
  fmla v17.4s, v5.4s, v12.s[0]
  ldp q0, q1, [x16], #32
  fmla v18.4s, v6.4s, v12.s[0]
  fmla v19.4s, v7.4s, v12.s[0]
  fmla v20.4s, v4.4s, v13.s[0]
  fmla v21.4s, v5.4s, v13.s[0]
  ldp s8, s9, [x11], #8
  fmla v22.4s, v6.4s, v13.s[0]
  fmla v23.4s, v7.4s, v13.s[0]
  ldp s10, s11, [x11], #8
  fmla v24.4s, v4.4s, v14.s[0]
  fmla v25.4s, v5.4s, v14.s[0]
  prfm PLDL1KEEP, [x11, #224]
  fmla v26.4s, v6.4s, v14.s[0]
  fmla v27.4s, v7.4s, v14.s[0]
  ldp q2, q3, [x16], #32
  fmla v28.4s, v4.4s, v15.s[0]
  fmla v29.4s, v5.4s, v15.s[0]
  fmla v30.4s, v6.4s, v15.s[0]
  fmla v31.4s, v7.4s, v15.s[0]
  subs x8, x8, #1
  bgt mca_loop
