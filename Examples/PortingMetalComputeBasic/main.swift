// A port of MetalComputeBasic/main.swift from github.com/nealsid/MetalComputeBasic at
// commit 94b0a2fa86e2bd709fbc5ceaf0684b1edce45e9c (see MetalAdder.swift).

import Foundation
import GPU   // SwiftGPU: was `import Metal`.

var device = try! Device.makeDefault()   // SwiftGPU: MTLCreateSystemDefaultDevice()!.

var adder = MetalAdder(device: device)

adder.sendComputeCommand()

// Added for the test suite: the numbers it checks (the fill kernel stores each index, so
// result[i] is 2i).
let result = adder._mBufferResult.contents().assumingMemoryBound(to: Float.self)
for index in [0, 1, 12_345, adder._mArrayLength - 1] {
    print("result[\(index)] = \(result[index])")
}
