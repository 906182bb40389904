#!/bin/sh
# Builds, here (no GPU needed), what bench/gpu/run-async.sh runs on the GPU
# machine: `tensorop gen` kernels for nvidia-sm90, one async_check consumer
# per kernel (C++ with the CUDA runtime and cuBLAS, the generated object,
# libtensorop_cuda_runtime, NVML sampling), and tensorop-gpu-runner.
#   sh bench/gpu/build-async.sh [BUILD_DIR] [STAGE_DIR]
# STAGE_DIR (default .gpu-async, git-ignored through .git/info/exclude) is
# what the device tool carries. KERNELS=FILE replaces the list of kernels
# below (lines name|request|M|N|K|AT|CT).
set -e
BUILD=${1:-build}
STAGE=${2:-.gpu-async}
CUDA=${CUDA_HOME:-/usr/local/cuda}
CXX=${CXX:-clang++-22}
rm -rf "$STAGE" && mkdir -p "$STAGE"
# name|request|M|N|K|AT|CT
cat > "$STAGE/kernels.txt" <<'LIST'
a_bf16_4096|4096x4096x4096 bf16 GEMM for nvidia-sm90|4096|4096|4096|bf16|bf16
a_bf16_2000|2000x3000x1504 bf16 GEMM for nvidia-sm90|2000|3000|1504|bf16|bf16
a_bf16_3|3x4096x4096 bf16 GEMM for nvidia-sm90|3|4096|4096|bf16|bf16
a_f16_127|127x1000x513 f16 GEMM for nvidia-sm90|127|1000|513|f16|f16
LIST
[ -z "$KERNELS" ] || cp "$KERNELS" "$STAGE/kernels.txt"
while IFS='|' read -r name request m n k at ct; do
  "$BUILD/bin/tensorop" gen "$request" -o "$STAGE/$name" --name="$name" > "$STAGE/$name.gen.log"
  $CXX -O2 -std=c++17 -Wall -Wextra -Werror -DNAME="$name" -DM="$m" -DN="$n" -DK="$k" \
    -DAT="$at" -DCT="$ct" -I"$STAGE/$name" -Iinclude -I"$CUDA/include" \
    bench/gpu/async_check.cpp "$STAGE/$name/$name.o" \
    "$BUILD/lib/libtensorop_cuda_runtime.a" "$BUILD/lib/libtensorop_nvml.a" \
    "$BUILD/lib/Verify/libTensorOpVerify.a" \
    -L"$CUDA/lib64" -lcublas -lcudart_static -L"$CUDA/lib64/stubs" -lcuda \
    -ldl -lrt -lpthread -static-libstdc++ -static-libgcc -o "$STAGE/$name/async_check"
  # what the device needs: the cubin, launch description, consumer
  find "$STAGE/$name" -type f ! -name '*.cubin' ! -name '*.launch.json' \
    ! -name async_check ! -name '*.h' -delete
done < "$STAGE/kernels.txt"
# Exit noise, new runtime and (with BASELINE_BUILD=DIR, a build of an older
# commit) the old one, on the bf16 4096^3 kernel.
for which in new baseline; do
  B=$BUILD
  if [ $which = baseline ]; then
    [ -n "$BASELINE_BUILD" ] || continue
    B=$BASELINE_BUILD
  fi
  mkdir -p "$STAGE/exit-$which"
  "$B/bin/tensorop" gen "4096x4096x4096 bf16 GEMM for nvidia-sm90" -o "$STAGE/exit-$which/g" --name=e_bf16 > /dev/null
  $CXX -O2 -std=c++17 -DNAME=e_bf16 -DM=4096 -DN=4096 -DK=4096 -I"$STAGE/exit-$which/g" \
    -I"$CUDA/include" bench/gpu/exit_check.cpp "$STAGE/exit-$which/g/e_bf16.o" \
    "$B/lib/libtensorop_cuda_runtime.a" -L"$CUDA/lib64" -lcudart_static \
    -L"$CUDA/lib64/stubs" -lcuda -ldl -lrt -lpthread -static-libstdc++ -static-libgcc \
    -o "$STAGE/exit-$which/exit_check"
  rm -rf "$STAGE/exit-$which/g"
done
cp "$BUILD/bin/tensorop-gpu-runner" "$STAGE/"
cp bench/gpu/run-async.sh "$STAGE/"
du -sh "$STAGE"
