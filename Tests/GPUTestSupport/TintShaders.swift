/// GLSL shaders the Metal-name tests draw with: positions from vertex buffer 0, one colour
/// from fragment buffer 0 (`setFragmentBytes(_:length:index: 0)`).
package enum TintShaders {
    /// A vertex shader of 3D positions (`.float3` attribute 0).
    package static let positions3D = """
        #version 450
        #pragma shader_stage(vertex)
        layout(location = 0) in vec3 position;
        void main() { gl_Position = vec4(position, 1); }
        """
    /// A fragment shader that writes the colour in fragment buffer 0.
    package static let tint = """
        #version 450
        #pragma shader_stage(fragment)
        layout(std140, binding = 64) uniform Tint { vec4 tint; };
        layout(location = 0) out vec4 color;
        void main() { color = tint; }
        """
}
