# Sourced by bench/cpu/run.sh, compare_builds.sh and compare_interleaved.sh:
# `tensorop gen`'s objects for a harness that includes kernels.inc and
# kernels_headers.inc (gemm_vs_libraries.c, variants_ab.c), and the
# harness built and run next to OpenBLAS, oneDNN and libxsmm. Needs bash.

# add_gemm BUILD DIR NAME MxNxK THREADS CLASS
# Generates the fp32 GEMM as NAME into DIR/NAME (unless its object is there
# already: KEEP=DIR reuses them), adds its KERNEL(...) row of class CLASS to
# DIR/kernels.inc, its header to DIR/kernels_headers.inc and its object to
# the array OBJS.
add_gemm() {
  local build=$1 dir=$2 name=$3 shape=$4 threads=$5 cls=$6 m n k
  IFS=x read -r m n k <<< "$shape"
  [ -f "$dir/$name/$name.o" ] ||
    "$build/bin/tensorop" gen "${m}x${n}x${k} fp32 GEMM" --name="$name" \
      --threads="$threads" --no-bench -o "$dir/$name" > "$dir/$name.log"
  echo "KERNEL($name, $m, $n, $k, \"$cls\")" >> "$dir/kernels.inc"
  echo "#include \"$dir/$name/$name.h\"" >> "$dir/kernels_headers.inc"
  OBJS+=("$dir/$name/$name.o")
}

# bench_vs_libraries HARNESS DIR THREADS
# Builds HARNESS with DIR's kernels and OBJS into DIR/bench (ROUNDS /
# ROUND_SECONDS as -D; CPU_TIME=1, 1 thread only: the thread's CPU clock;
# CPU_TIME=process: the process CPU clock with every OpenMP runtime and
# OpenBLAS's threads asleep while they wait, see compare_interleaved.sh)
# and runs it with THREADS threads on every side, OpenBLAS unpinned.
bench_vs_libraries() {
  local harness=$1 dir=$2 threads=$3 clock="" omp="" wait=()
  if [ "$CPU_TIME" = process ]; then
    clock=-DTIMING_CLOCK=CLOCK_PROCESS_CPUTIME_ID
    wait=(OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4)
  elif [ -n "$CPU_TIME" ]; then
    [ "$threads" = 1 ] || { echo "CPU_TIME needs THREADS 1" >&2; return 2; }
    clock=-DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID
  fi
  [ "$threads" -gt 1 ] &&
    omp="-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp"
  clang-22 -O2 -DTHREADS="$threads" $clock ${ROUNDS:+-DROUNDS=$ROUNDS} \
    ${ROUND_SECONDS:+-DROUND_SECONDS=$ROUND_SECONDS} -I"$dir" \
    "$harness" "${OBJS[@]}" -o "$dir/bench" \
    -lxsmm -ldnnl -lopenblas $omp -lpthread -lrt -ldl -lm
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
    ${BENCH_OPENBLAS_CORETYPE:+OPENBLAS_CORETYPE=$BENCH_OPENBLAS_CORETYPE} OMP_NUM_THREADS="$threads" \
    OPENBLAS_NUM_THREADS="$threads" "${wait[@]}" "$dir/bench"
}
