// Tuner knobs: single-threaded kernels only (every other knob free).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @one_thread() {
    %t = transform.tune.knob<"threads"> = 1 from options = [1, 2] -> !transform.param<i64>
    transform.yield
  }
}
