#version 450
#extension GL_EXT_buffer_reference : require
// Follows a chain of GPU addresses: buffer 0 holds the address of a table, whose entries
// are the addresses of buffers of values (Metal's argument buffer of buffers, through
// `Buffer.gpuAddress`). Thread i reads value i % perBuffer of buffer i / perBuffer into
// buffer 1. The table's references sit in a struct: glslang declares the
// RuntimeDescriptorArray capability for a runtime array of bare references.
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Values { uint values[]; };
struct Ref { Values values; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Table { Ref buffers[]; };
layout(set = 0, binding = 0, std430) readonly buffer Root { Table table; uint perBuffer; uint count; };
layout(set = 0, binding = 1, std430) writeonly buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) return;
    result[i] = table.buffers[i / perBuffer].values.values[i % perBuffer];
}
