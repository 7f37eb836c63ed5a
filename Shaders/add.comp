#version 450
// out[i] = a[i] + b[i] for i < count. Buffers 0 and 1 are inputs, 2 the output, and
// buffer 3 carries the element count (set with setBytes).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float result[]; };
layout(set = 0, binding = 3) uniform Params { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        result[i] = a[i] + b[i];
    }
}
