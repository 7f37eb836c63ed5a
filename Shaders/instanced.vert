#version 450
// Instancing without vertex buffers: a small triangle per instance, placed on a grid,
// coloured from a storage buffer indexed by the instance. Metal's clip space: y up, row 0 at
// the top.
layout(location = 0) out vec4 vColor;
layout(set = 0, binding = 0) readonly buffer Colors { vec4 colors[]; };

void main() {
    vec2 corners[3] = vec2[](vec2(-0.2, -0.2), vec2(0.2, -0.2), vec2(0.0, 0.2));
    int column = gl_InstanceIndex % 4;
    int row = gl_InstanceIndex / 4;
    vec2 center = vec2(-0.75 + 0.5 * float(column), 0.75 - 0.5 * float(row));
    gl_Position = vec4(center + corners[gl_VertexIndex], 0.0, 1.0);
    vColor = colors[gl_InstanceIndex];
}
