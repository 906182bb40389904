void gemm_ikj(long M, long N, long K, const float *restrict A,
              const float *restrict B, float *restrict C) {
  for (long i = 0; i < M; i++)
    for (long k = 0; k < K; k++) {
      float a = A[i * K + k];
      for (long j = 0; j < N; j++)
        C[i * N + j] += a * B[k * N + j];
    }
}
