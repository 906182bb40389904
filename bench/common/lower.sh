# Sourced by the benchmark scripts (bench/cpu/sketch_ab.sh, bench/conv/*.sh):
# the steps from an MLIR module to an object file and, for the convolution
# scripts, from a layer to its module. Needs bash.

# lower_object BUILD PIPELINE_OPTIONS IN.mlir OUT.o [CLANG_FLAG ...]
# Lowers IN through tensorop-opt --tensorop-pipeline="PIPELINE_OPTIONS"
# (its remarks go to OUT's .remarks, the lowered module and the LLVM IR stay
# beside OUT as .lowered.mlir and .ll), then compiles it with clang-22 -c
# and the flags (default -O2). Fails, naming the remarks file, when
# tensorop-opt does.
lower_object() {
  local build=$1 options=$2 in=$3 out=$4
  shift 4
  local stem=${out%.o}
  "$build/bin/tensorop-opt" --tensorop-pipeline="$options" "$in" \
      -o "$stem.lowered.mlir" 2>"$stem.remarks" ||
    { echo "tensorop-opt failed on $in (see $stem.remarks):" >&2
      tail -5 "$stem.remarks" >&2; return 1; }
  /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir "$stem.lowered.mlir" \
      -o "$stem.ll"
  [ $# -gt 0 ] || set -- -O2
  clang-22 -c -Wno-override-module "$@" "$stem.ll" -o "$out"
}

# conv_layer_module "N H W C F R S stride pad dilation" OUT.mlir [GEN_FLAG ...]
# The layer as `tensorop gen` builds it (test/Integration/gen_conv_test.py's
# @conv, without its @main); GEN_FLAGs go to gen_conv_test.py (--steps ...).
conv_layer_module() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  local out=$2 extra=("${@:3}")
  set -- $1
  python3 "$here/../../test/Integration/gen_conv_test.py" --n $1 --h $2 \
      --w $3 --c $4 --f $5 --r $6 --s $7 --stride $8 --pad $9 \
      ${10:+--dilation ${10}} "${extra[@]}" |
    sed '/^func.func @main/,$d' > "$out"
}
