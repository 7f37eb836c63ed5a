#version 450
// add_arrays from the original's add.metal, in GLSL. The threadgroup size is chosen at
// dispatch, as in Metal (local_size_x_id), so Apple's sizing works and the grid is
// covered exactly: no bounds check, as in the original.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer InA { float inA[]; };
layout(std430, binding = 1) readonly buffer InB { float inB[]; };
layout(std430, binding = 2) writeonly buffer Result { float result[]; };

void main() {
    uint index = gl_GlobalInvocationID.x;   // [[thread_position_in_grid]]
    result[index] = inA[index] + inB[index];
}
