#version 450
// A cube's vertex for the WindowedCube example: position and colour from a vertex buffer
// (attributes 0 and 1), moved to clip space by the model-view-projection matrix at buffer
// index 1.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;
layout(location = 0) out vec4 vColor;

layout(set = 0, binding = 1) uniform Transform { mat4 modelViewProjection; };

void main() {
    gl_Position = modelViewProjection * vec4(position, 1.0);
    vColor = vec4(color, 1.0);
}
