#version 450
// fill_array from the original's add.metal: each element set to its index.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) writeonly buffer In { float values[]; };

void main() {
    uint index = gl_GlobalInvocationID.x;   // [[thread_position_in_grid]]
    values[index] = float(index);
}
