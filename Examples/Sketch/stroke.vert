#version 450
// Stroke geometry in window pixels (origin top-left) to Metal's clip space (y up).
layout(location = 0) in vec2 position;
layout(std140, binding = 1) uniform Viewport { vec2 size; };

void main() {
    gl_Position = vec4(position.x / size.x * 2.0 - 1.0, 1.0 - position.y / size.y * 2.0, 0.0, 1.0);
}
