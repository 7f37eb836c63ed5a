#version 450
// Adds `amount` to counter[0]: a visible trace of every command buffer that ran.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Counter { uint counter[]; };
layout(set = 0, binding = 3) uniform Params { uint amount; };

void main() {
    atomicAdd(counter[0], amount);
}
