//===- HeaderPreamble.cpp - Text every generated header shares ------------===//
//
// The guard lets a program include headers of several generated kernels (of
// either backend) without redefining the typedefs.
//
//===----------------------------------------------------------------------===//

#include "HeaderPreamble.h"

const char *tensorop::halfTypesPreamble() {
  return "#ifndef TENSOROP_HALF_TYPES\n"
         "#define TENSOROP_HALF_TYPES\n"
         "typedef uint16_t tensorop_bf16; /* bfloat16 bits */\n"
         "typedef uint16_t tensorop_f16;  /* IEEE binary16 bits */\n"
         "#endif\n";
}
