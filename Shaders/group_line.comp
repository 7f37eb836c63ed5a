#version 450
// For a grid that is a line of groups along one axis: adds group + 1 to each invocation's
// word, where group is the workgroup's index along that axis. Every word then shows which
// group wrote it, and a word written twice shows a doubled value.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Words { uint words[]; };

void main() {
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y + gl_WorkGroupID.z;
    atomicAdd(words[group * 64 + gl_LocalInvocationID.x], group + 1);
}
