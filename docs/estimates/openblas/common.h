/* Minimal stand-in for OpenBLAS's common.h: just what the sgemm kernels that
   openblas_mca.py compiles need (single precision, CNAME, the asm
   PROLOGUE/EPILOGUE of kernel/arm64/*.S).  Not part of TensorOp. */
#ifdef ASSEMBLER
#define PROLOGUE .text; .globl sgemm_kernel; sgemm_kernel:
#define EPILOGUE
#else
#include <riscv_vector.h>
typedef long BLASLONG;
typedef float FLOAT;
typedef float IFLOAT;
#define CNAME sgemm_kernel
#endif
