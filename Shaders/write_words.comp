#version 450
// Writes the eight 32-bit words given at buffer index 3 into buffer 0 from word `first`:
// indirect draw and dispatch arguments made on the GPU.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) writeonly buffer Words { uint words[]; };
layout(set = 0, binding = 3) uniform Params { uvec4 values[2]; uint first; };

void main() {
    uint i = gl_LocalInvocationID.x;
    words[first + i] = values[i / 4u][i % 4u];
}
