#!/bin/sh
# Stages, here, the parts of two GPU lit tests that need a GPU (REQUIRES:
# gpu; CI and this machine have none): test/GPU/batch-matmul-run.test's
# four AOT programs and runner-epilogue-run.test's split-K-through-the-
# workspace cases (WS, EXACT/VERIFIED). Everything is built here with
# BUILD; the GPU machine only runs it:
#   bench/gpu/stage-gpu-lit.sh BUILD STAGE
#   (GPU machine)  sh STAGE/run-lit.sh      -> $OUT/lit.tar (one .txt each)
#   (here)         bench/gpu/check-gpu-lit.sh lit.tar   (the tests' FileCheck lines)
set -e
B=$(cd "$1" && pwd); STAGE=$2; SRC=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$STAGE"; mkdir -p "$STAGE/bin" "$STAGE/gen"
cp "$B/bin/tensorop-gpu-runner" "$STAGE/"
CUDA=${CUDA_ROOT:-/usr/local/cuda}
"$B/bin/tensorop-opt" "$SRC/test/GPU/Inputs/batch_matmul_gpu.mlir" \
  --tensorop-pipeline="target=nvidia-sm90 bare-ptr-abi=1" 2>/dev/null |
  mlir-translate-22 --mlir-to-llvmir -o "$STAGE/bmm.ll"
clang-22 -O2 -w -c "$STAGE/bmm.ll" -o "$STAGE/bmm.o"
# the RUN lines' programs, by their %t names
while read -r name defs; do
  gcc -O2 -I"$SRC/include" $defs "$SRC/test/GPU/Inputs/aot_batch_check.c" "$STAGE/bmm.o" \
    "$B/lib/libtensorop_cuda_runtime.a" -L"$CUDA/lib64/stubs" -lcuda -lstdc++ -lm -lpthread \
    -o "$STAGE/bin/$name"
done <<'L'
bmm_a -DFN=bmm_bf16 -DBATCH=3 -DM=130 -DN=136 -DK=72 -DAT=bf16 -DCT=f32
bmm_b -DFN=bmm_f16_reduce -DREDUCE -DBATCH=4 -DM=64 -DN=128 -DK=16 -DAT=f16 -DCT=f16
bmm_c -DFN=bmm_f32 -DBATCH=2 -DM=33 -DN=47 -DK=19 -DAT=f32 -DCT=f32
bmm_d -DFN=bmm_bf16_bias_relu -DBIAS_RELU -DBATCH=3 -DM=130 -DN=136 -DK=72 -DAT=bf16 -DCT=f32
L
rm -f "$STAGE/bmm.ll" "$STAGE/bmm.o"
while IFS='|' read -r name request; do
  "$B/bin/tensorop" gen "$request" -o "$STAGE/gen/$name" --name="k_$name" > /dev/null
  (cd "$STAGE/gen/$name" && rm -f *.mlir *.ll *.o *.ptx *.h report.*)
done <<'L'
ws1|640x24x32768 bf16 GEMM with bias, residual and ReLU for H200
ws2|5000x24x4096 bf16 GEMM with bias, residual and ReLU for H200
ws3|1024x8x16384 f16 GEMM with row bias, GELU and residual for H200
L
cat > "$STAGE/run-lit.sh" <<'SH'
#!/bin/sh
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; T=$(mktemp -d)
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
for p in "$STAGE"/bin/*; do
  timeout 60 "$p" > "$T/$(basename "$p").txt" 2>&1; echo "rc=$?" >> "$T/$(basename "$p").txt"
done
for d in "$STAGE"/gen/*; do
  n=$(basename "$d")
  cp "$d/k_$n.launch.json" "$T/$n.launch.txt"
  timeout 120 "$STAGE/tensorop-gpu-runner" "$d/k_$n.launch.json" --no-time > "$T/$n.txt" 2> "$T/$n.err.txt"
  echo "rc=$?" >> "$T/$n.err.txt"
done
tar -C "$T" -cf "$OUTD/lit.tar" .
SH
echo "staged in $STAGE"
