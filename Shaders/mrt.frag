#version 450
// Two colour attachments: the vertex colour, and its inverse tinted by fragment bytes
// (fragment buffer index 0 = binding 64).
layout(location = 0) in vec4 vColor;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
layout(set = 0, binding = 64) uniform Tint { vec4 tint; };

void main() {
    first = vColor;
    second = vec4((vec3(1.0) - vColor.rgb) * tint.rgb, 1.0);
}
