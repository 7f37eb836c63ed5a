import Testing
import simd

/// simd_quatf: rotations about an axis, composition, the rotation matrix, and back.
@Suite("simd_quatf")
struct QuaternionTests {
    /// A quarter turn about z: x goes to y.
    static let quarterTurn = simd_quatf(angle: .pi / 2, axis: SIMD3(0, 0, 1))

    @Test("a quarter turn about z takes (1, 0, 0) to (0, 1, 0) and (1, 2, 3) to (-2, 1, 3)")
    func act() {
        #expect(approximately(Self.quarterTurn.act(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
        #expect(approximately(Self.quarterTurn.act(SIMD3(1, 2, 3)), SIMD3(-2, 1, 3)))
        #expect(approximately(simd_act(Self.quarterTurn, SIMD3(1, 2, 3)), SIMD3(-2, 1, 3)))
        // The axis need not have length 1.
        #expect(approximately(simd_quatf(angle: .pi / 2, axis: SIMD3(0, 0, 5)).act(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
    }

    @Test("parts: cos and sin of half the angle; angle and axis read back")
    func parts() {
        let half = Float(0.5).squareRoot()
        #expect(approximately(Self.quarterTurn.vector, SIMD4(0, 0, half, half)))
        #expect(abs(Self.quarterTurn.real - half) < 1e-6)
        #expect(approximately(Self.quarterTurn.imag, SIMD3(0, 0, half)))
        #expect(abs(Self.quarterTurn.angle - .pi / 2) < 1e-6)
        #expect(approximately(Self.quarterTurn.axis, SIMD3(0, 0, 1)))
        #expect(abs(Self.quarterTurn.length - 1) < 1e-6)
        #expect(simd_quatf(ix: 1, iy: 2, iz: 3, r: 4).vector == SIMD4(1, 2, 3, 4))
        #expect(simd_quatf(real: 4, imag: SIMD3(1, 2, 3)) == simd_quaternion(1, 2, 3, 4))
        #expect(simd_quaternion(SIMD3(1, 2, 3), 4) == simd_quaternion(SIMD4(1, 2, 3, 4)))
        #expect(simd_quaternion(.pi / 2, SIMD3(0, 0, 1)) == Self.quarterTurn)
        #expect(simd_quatf(ix: 1, iy: 2, iz: 3, r: 4).conjugate == simd_quatf(ix: -1, iy: -2, iz: -3, r: 4))
        #expect(approximately(simd_quatf(ix: 0, iy: 3, iz: 0, r: 4).normalized.vector, SIMD4(0, 0.6, 0, 0.8)))
    }

    @Test("products compose rotations; a quaternion times its inverse is 1")
    func products() {
        let halfTurn = Self.quarterTurn * Self.quarterTurn
        #expect(approximately(halfTurn.act(SIMD3(1, 0, 0)), SIMD3(-1, 0, 0)))
        #expect(approximately(simd_mul(Self.quarterTurn, Self.quarterTurn).vector, halfTurn.vector))
        let q = simd_quatf(ix: 1, iy: 2, iz: 3, r: 4)
        #expect(approximately((q * q.inverse).vector, SIMD4(0, 0, 0, 1)))
        #expect(approximately((simd_inverse(q) * q).vector, SIMD4(0, 0, 0, 1)))
        #expect((q + q).vector == (2 * q).vector)
        #expect((q - q).vector == SIMD4(repeating: 0))
        #expect((-q).vector == q.vector * -1)
    }

    @Test("the rotation matrix moves a vector as the quaternion does")
    func matrix() {
        let q = simd_quatf(angle: 0.7, axis: SIMD3(1, 2, 2))
        let v = SIMD3<Float>(0.5, -1, 2)
        #expect(approximately(simd_float3x3(q) * v, q.act(v)))
        #expect(approximately(simd_matrix3x3(q) * v, q.act(v)))
        let moved = simd_float4x4(q) * SIMD4(v, 1)
        #expect(approximately(moved, SIMD4(q.act(v), 1)))
        #expect(approximately(simd_matrix4x4(Self.quarterTurn) * SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1)))
        #expect(abs(simd_float3x3(q).determinant - 1) < 1e-5)
    }

    @Test("a rotation matrix converts back to its quaternion (up to sign), on every branch")
    func fromMatrix() {
        // Small angles take the trace branch; half turns about x, y and z each take the
        // branch of their axis.
        for (angle, axis) in [(Float(0.7), SIMD3<Float>(1, 2, 2)), (3.0, SIMD3(1, 0, 0)), (3.0, SIMD3(0, 1, 0)),
                              (3.0, SIMD3(0, 0, 1)), (2.5, SIMD3(1, 1, -1))] {
            let q = simd_quatf(angle: angle, axis: axis)
            let back = simd_quatf(simd_float3x3(q))
            let sign: Float = simd_dot(back.vector, q.vector) < 0 ? -1 : 1
            #expect(approximately(back.vector * sign, q.vector), "angle \(angle), axis \(axis)")
            #expect(approximately(simd_quaternion(simd_float4x4(q)).vector * sign, q.vector))
            #expect(approximately(simd_quaternion(simd_float3x3(q)).vector * sign, q.vector))
        }
    }

    @Test("slerp: a third of the way from no turn to a quarter turn is a 30° turn; the shorter arc from -q")
    func slerp() {
        let none = simd_quatf(angle: 0, axis: SIMD3(0, 0, 1))
        let third = simd_slerp(none, Self.quarterTurn, 1.0 / 3)
        #expect(approximately(third.vector, simd_quatf(angle: .pi / 6, axis: SIMD3(0, 0, 1)).vector))
        #expect(approximately(simd_slerp(none, Self.quarterTurn, 0).vector, none.vector))
        #expect(approximately(simd_slerp(none, Self.quarterTurn, 1).vector, Self.quarterTurn.vector))
        // -quarterTurn is the same rotation: the path still turns by 30° at a third.
        let flipped = simd_slerp(none, -Self.quarterTurn, 1.0 / 3)
        #expect(approximately(flipped.act(SIMD3(1, 0, 0)), SIMD3(Float(3).squareRoot() / 2, 0.5, 0)))
        // Equal ends take the straight path and stay put.
        #expect(approximately(simd_slerp(Self.quarterTurn, Self.quarterTurn, 0.5).vector, Self.quarterTurn.vector))
    }
}
