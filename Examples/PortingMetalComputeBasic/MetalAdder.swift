// A port of MetalComputeBasic/MetalAdder.swift from github.com/nealsid/MetalComputeBasic at
// commit dbdc8654eeee95f48b5bbe5bbcc8e33fad98a950: a Swift translation of Apple's sample
// "Performing Calculations on a GPU". Every line is the original's except those marked
// `// SwiftGPU:`, which say what changed and why (the documentation's article "Porting from Metal").

import Foundation
import GPU   // SwiftGPU: was `import Metal`.

class MetalAdder {
    let _mArrayLength : Int = 1 << 24;
    let _mBufferSize : Int
    
    let _mDevice : Device   // SwiftGPU: MTLDevice.
    
    let _mAddFunctionPSO : ComputePipelineState   // SwiftGPU: MTLComputePipelineState.
    let _mFillFunctionPSO : ComputePipelineState   // SwiftGPU: MTLComputePipelineState.
    
    let _mCommandQueue : CommandQueue   // SwiftGPU: MTLCommandQueue.
    let _mBufferA, _mBufferB, _mBufferResult : Buffer   // SwiftGPU: MTLBuffer.

    let _mGridSize : Size   // SwiftGPU: MTLSize.

    init(device : Device) {   // SwiftGPU: MTLDevice.
        self._mDevice = device
        _mBufferSize = _mArrayLength * MemoryLayout<Float>.size // sizeof float
        let defaultLibrary = try! _mDevice.makeDefaultLibrary()   // SwiftGPU: throws where Metal returns nil.
        let addFunction = try! defaultLibrary.makeFunction(name: "add_arrays")   // SwiftGPU: throws.
        let fillArray = try! defaultLibrary.makeFunction(name: "fill_array")   // SwiftGPU: throws.
        _mGridSize = Size(width: _mArrayLength, height: 1, depth: 1)   // SwiftGPU: MTLSizeMake(_mArrayLength, 1, 1).
        
        _mAddFunctionPSO = try! _mDevice.makeComputePipelineState(function: addFunction)
        
        _mFillFunctionPSO = try! _mDevice.makeComputePipelineState(function: fillArray)
        
        _mCommandQueue = try! _mDevice.makeCommandQueue()   // SwiftGPU: throws.
        
        _mBufferA = try! _mDevice.makeBuffer(length: _mBufferSize, options: ResourceOptions.storageModeShared)   // SwiftGPU: throws; MTLResourceOptions.
        _mBufferB = try! _mDevice.makeBuffer(length: _mBufferSize, options: ResourceOptions.storageModeShared)   // SwiftGPU: throws; MTLResourceOptions.
        _mBufferResult = try! _mDevice.makeBuffer(length: _mBufferSize, options: ResourceOptions.storageModeShared)   // SwiftGPU: throws; MTLResourceOptions.
    }

    func sendComputeCommand() {
        let commandBuffer = try! _mCommandQueue.makeCommandBuffer()   // SwiftGPU: throws.
        
        var fillEncoder = try! commandBuffer.makeComputeCommandEncoder()   // SwiftGPU: throws.
        encodeFillCommandsInEncoder(fillEncoder, toDestBuffer: _mBufferA)
        fillEncoder.endEncoding()
        
        fillEncoder = try! commandBuffer.makeComputeCommandEncoder()   // SwiftGPU: throws.
        encodeFillCommandsInEncoder(fillEncoder, toDestBuffer: _mBufferB)
        fillEncoder.endEncoding()
        
        let computeEncoder = try! commandBuffer.makeComputeCommandEncoder()   // SwiftGPU: throws.
        encodeAddCommandInEncoder(computeEncoder)
        computeEncoder.endEncoding()

        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        verifyResults()
    }
    
    func threadGroupSizeForPipeline(_ function : ComputePipelineState) -> Size {   // SwiftGPU: MTLComputePipelineState, MTLSize.
        return Size(width: min(function.maxTotalThreadsPerThreadgroup, _mArrayLength), height: 1, depth: 1)   // SwiftGPU: MTLSizeMake.
    }
    
    func encodeFillCommandsInEncoder(_ fillEncoder : ComputeCommandEncoder, toDestBuffer buffer : Buffer) {   // SwiftGPU: MTL prefixes.
        fillEncoder.setComputePipelineState(_mFillFunctionPSO)
        fillEncoder.setBuffer(buffer, offset: 0, index: 0)

        fillEncoder.dispatchThreads(_mGridSize, threadsPerThreadgroup: threadGroupSizeForPipeline(_mFillFunctionPSO))
    }
    
    func encodeAddCommandInEncoder(_ computeEncoder : ComputeCommandEncoder) {   // SwiftGPU: MTLComputeCommandEncoder.
        computeEncoder.setComputePipelineState(_mAddFunctionPSO)
        computeEncoder.setBuffer(_mBufferA, offset: 0, index: 0)
        computeEncoder.setBuffer(_mBufferB, offset: 0, index: 1)
        computeEncoder.setBuffer(_mBufferResult, offset: 0, index: 2)

        computeEncoder.dispatchThreads(_mGridSize, threadsPerThreadgroup: threadGroupSizeForPipeline(_mAddFunctionPSO))
    }
    
    func verifyResults() {
        // Closure to create an unsafe buffer from an MTL Buffer, fixing both the length and that it's bound to floats.
        let createBuffer = { (x : Buffer) -> UnsafeBufferPointer<Float> in   // SwiftGPU: MTLBuffer.
            UnsafeBufferPointer(start: x.contents().assumingMemoryBound(to: Float.self), count: self._mArrayLength)
            }
        
        let bufferA = createBuffer(_mBufferA)
        let bufferB = createBuffer(_mBufferB)
        let resultsBuffer = createBuffer(_mBufferResult)

        for ((i,a),(_,b)) in zip(bufferA.enumerated(), bufferB.enumerated()) {
            let f = resultsBuffer[i]
            if (f != a + b) {
                print("Compute FAILED: index=\(i) result=\(f) vs \(a + b) = \(a) + \(b)")   // Not SwiftGPU: the original reads `i1`, which does not compile.
            }
        }
    }
}
