// Defines what msl_common.h declares; msl_linked.metal calls it. No entry point of its own.
#include <metal_stdlib>
using namespace metal;
#include "msl_common.h"

constant float msl_bias = 0.5;

static float msl_twice(float value) { return value * 2; }

float msl_scaled(float value, MSLScale scale) {
    return fma(msl_twice(value), scale.factor, scale.offset) + msl_bias;
}
