#version 450
// add_two_values from the original's Shaders.metal (MIT, see LICENSE), in GLSL. Metal
// sizes the threadgroup at dispatch (32 threads here), so the size is a specialization
// constant (local_size_x_id) that the dispatch sets. Buffers [[buffer(n)]] are bindings n.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer InputsA { float inputsA[]; };
layout(std430, binding = 1) readonly buffer InputsB { float inputsB[]; };
layout(std430, binding = 2) writeonly buffer Outputs { float outputs[]; };

void main()
{
    uint index = gl_GlobalInvocationID.x;   // [[thread_position_in_grid]]
    outputs[index] = inputsA[index] + inputsB[index];
}
