import CVulkan

/// A timeline semaphore: the counter a queue's submissions signal and its completion
/// thread waits on, and the payload of a `SharedEvent`.
///
/// `@unchecked Sendable`: the handle is immutable; timeline semaphores are safe to wait
/// on, signal and read from any thread.
final class QueueSubmitter: @unchecked Sendable {
    let device: DeviceBackend
    let handle: VkSemaphore

    init(device: DeviceBackend, initialValue: UInt64 = 0) throws(VulkanError) {
        self.device = device
        var typeInfo = VkSemaphoreTypeCreateInfo()
        typeInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO
        typeInfo.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE
        typeInfo.initialValue = initialValue
        var semaphore: VkSemaphore?
        let vk = device.handle
        try vkCall(.createSemaphore, device.unretainedFaults) {
            withUnsafePointer(to: &typeInfo) { typePointer in
                var info = VkSemaphoreCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
                info.pNext = UnsafeRawPointer(typePointer)
                return vkCreateSemaphore(vk, &info, nil, &semaphore)
            }
        }
        handle = semaphore!
    }

    deinit { vkDestroySemaphore(device.handle, handle, nil) }

    /// The current counter value.
    func value() throws(VulkanError) -> UInt64 {
        var value: UInt64 = 0
        let handle = handle
        try vkCall(.getSemaphoreCounterValue, device.unretainedFaults) { vkGetSemaphoreCounterValue(device.handle, handle, &value) }
        return value
    }

    /// Sets the counter from the host; `value` must exceed the current one.
    func signal(_ value: UInt64) throws(VulkanError) {
        var info = VkSemaphoreSignalInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO
        info.semaphore = handle
        info.value = value
        try vkCall(.signalSemaphore, device.unretainedFaults) { vkSignalSemaphore(device.handle, &info) }
    }

    /// Blocks until the counter reaches `value`; returns false on timeout. One semaphore
    /// only: Mesa drivers without native wait-any turn a wait for any of several into a
    /// busy loop.
    func wait(for value: UInt64, timeoutNanoseconds: UInt64 = .max) throws(VulkanError) -> Bool {
        var semaphore: VkSemaphore? = handle
        var value = value
        let vk = device.handle
        return try vkCall(.waitSemaphores, device.unretainedFaults) {
            var info = VkSemaphoreWaitInfo()
            info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO
            info.semaphoreCount = 1
            return withUnsafePointer(to: &semaphore) { semaphores in
                withUnsafePointer(to: &value) { values in
                    info.pSemaphores = semaphores
                    info.pValues = values
                    return vkWaitSemaphores(vk, &info, timeoutNanoseconds)
                }
            }
        } == VK_SUCCESS
    }
}

/// A semaphore operation attached to a submission: the timeline's semaphore and a value.
///
/// It holds the handle, not the timeline: what owns the timeline keeps it alive for as
/// long as the submission may use it (the queue's engine outlives its submissions, and a
/// command buffer retains the events it waits for and signals), so an operation costs no
/// reference counting as it is stored, submitted and dropped with each buffer.
struct TimelineOperation {
    let semaphore: VkSemaphore
    var value: UInt64

    init(timeline: QueueSubmitter, value: UInt64) {
        semaphore = timeline.handle
        self.value = value
    }
}

extension DeviceBackend {
    /// Submits `commandBuffer` (or nothing, for an empty command buffer), preceded by
    /// `earlierBuffers` in the same batch, after `waits`, signalling `signals` and the binary semaphores `presentSignals` (of drawables it
    /// presents) when it completes. One `vkQueueSubmit2`, no allocation.
    func submit(_ commandBuffer: VkCommandBuffer?,
                after earlierBuffers: UnsafeBufferPointer<VkCommandBuffer> = UnsafeBufferPointer(start: nil, count: 0),
                waits: UnsafeBufferPointer<TimelineOperation> = UnsafeBufferPointer(start: nil, count: 0),
                signals: UnsafeBufferPointer<TimelineOperation>,
                presentSignals: UnsafeBufferPointer<VkSemaphore> = UnsafeBufferPointer(start: nil, count: 0)) throws(VulkanError) {
        let allStages = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        let signalCount = signals.count + presentSignals.count
        try vkCall(.queueSubmit, unretainedFaults) {
            withUnsafeTemporaryAllocation(of: VkSemaphoreSubmitInfo.self, capacity: waits.count + signalCount) { infos in
                func fill(_ index: Int, _ operation: TimelineOperation) {
                    var info = VkSemaphoreSubmitInfo()
                    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
                    info.semaphore = operation.semaphore
                    info.value = operation.value
                    info.stageMask = allStages
                    infos[index] = info
                }
                for (index, operation) in waits.enumerated() { fill(index, operation) }
                for (index, operation) in signals.enumerated() { fill(waits.count + index, operation) }
                for (index, semaphore) in presentSignals.enumerated() {
                    var info = VkSemaphoreSubmitInfo()
                    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
                    info.semaphore = semaphore
                    info.stageMask = allStages
                    infos[waits.count + signals.count + index] = info
                }
                let commandCount = commandBuffer == nil ? 0 : earlierBuffers.count + 1
                return withUnsafeTemporaryAllocation(of: VkCommandBufferSubmitInfo.self, capacity: commandCount) { commands in
                    for index in 0..<commandCount {
                        var info = VkCommandBufferSubmitInfo()
                        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
                        info.commandBuffer = index < earlierBuffers.count ? earlierBuffers[index] : commandBuffer
                        commands[index] = info
                    }
                    var submit = VkSubmitInfo2()
                    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2
                    submit.waitSemaphoreInfoCount = UInt32(waits.count)
                    submit.pWaitSemaphoreInfos = UnsafePointer(infos.baseAddress)
                    submit.signalSemaphoreInfoCount = UInt32(signalCount)
                    submit.pSignalSemaphoreInfos = UnsafePointer(infos.baseAddress.map { $0 + waits.count })
                    submit.commandBufferInfoCount = UInt32(commandCount)
                    submit.pCommandBufferInfos = UnsafePointer(commands.baseAddress)
                    return queueSubmit(&submit, count: 1)
                }
            }
        }
    }
}

extension DeviceBackend {
    /// `submit` of one command buffer that waits for nothing and signals `signal` alone (most
    /// command buffers): its three structures on the stack, no temporary allocation or loop.
    func submit(_ commandBuffer: VkCommandBuffer, signalling signal: TimelineOperation) throws(VulkanError) {
        var semaphore = VkSemaphoreSubmitInfo()
        semaphore.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
        semaphore.semaphore = signal.semaphore
        semaphore.value = signal.value
        semaphore.stageMask = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        var command = VkCommandBufferSubmitInfo()
        command.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
        command.commandBuffer = commandBuffer
        try withUnsafePointer(to: &semaphore) { (semaphore) throws(VulkanError) in
            try withUnsafePointer(to: &command) { (command) throws(VulkanError) in
                var submit = VkSubmitInfo2()
                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2
                submit.signalSemaphoreInfoCount = 1
                submit.pSignalSemaphoreInfos = semaphore
                submit.commandBufferInfoCount = 1
                submit.pCommandBufferInfos = command
                try vkCall(.queueSubmit, unretainedFaults) { queueSubmit(&submit, count: 1) }
            }
        }
    }
}

extension CommandRecorder {
    /// Submits this context alone, signalling `value` on the queue's `timeline` with its own
    /// signals: `DeviceBackend.submit` with its command buffer, waits, signals and present
    /// semaphores (the one-signal `submit` when it has none of those).
    func submitAlone(on device: DeviceBackend, timeline: QueueSubmitter, value: UInt64) throws(VulkanError) {
        let signal = TimelineOperation(timeline: timeline, value: value)
        guard !waits.isEmpty || !signals.isEmpty || !presentSignals.isEmpty || !indirect.segments.isEmpty else {
            try device.submit(commandBuffer, signalling: signal)
            return
        }
        signals.append(signal)
        try indirect.segments.withUnsafeBufferPointer { (earlier) throws(VulkanError) in
            try device.submit(commandBuffer, after: earlier, waits: waits.elements, signals: signals.elements,
                              presentSignals: presentSignals.elements)
        }
    }

    /// Submits `count` recorded contexts in order, in one `vkQueueSubmit2`: `entry(i)` for i
    /// in `0..<count` gives a context and the value of the queue's `timeline` at which it
    /// completes. Values never fall; consecutive contexts given the same value share one
    /// `VkSubmitInfo2` (their command buffers in order) with the waits of the first of them
    /// and the signals and drawable semaphores of the last, and the timeline signal of
    /// their value. The caller gives one value only to contexts that observe no difference:
    /// each waits for nothing the first does not, and none but the last signals anything.
    /// Either all are submitted or, when the call fails, none. The contexts come
    /// unretained: the caller keeps each alive until this returns. The structures live in
    /// temporary memory (on the stack for a small batch).
    static func submit(_ device: DeviceBackend, count: Int, timeline: QueueSubmitter,
                       _ entry: (Int) -> (context: Unmanaged<CommandRecorder>, value: UInt64)) throws(VulkanError) {
        let allStages = VkPipelineStageFlags2(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        var semaphoreCount = 0
        var commandCount = 0
        for index in 0..<count {
            entry(index).context._withUnsafeGuaranteedRef {
                semaphoreCount += $0.waits.count + $0.signals.count + $0.presentSignals.count + 1
                commandCount += $0.submittedCommandBufferCount
            }
        }
        try vkCall(.queueSubmit, device.unretainedFaults) {
            withUnsafeTemporaryAllocation(of: VkSemaphoreSubmitInfo.self, capacity: semaphoreCount) { semaphores in
                withUnsafeTemporaryAllocation(of: VkCommandBufferSubmitInfo.self, capacity: commandCount) { commands in
                    withUnsafeTemporaryAllocation(of: VkSubmitInfo2.self, capacity: count) { submits in
                        var nextSemaphore = 0
                        var submitCount = 0
                        func add(_ semaphore: VkSemaphore?, _ value: UInt64) {
                            var info = VkSemaphoreSubmitInfo()
                            info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO
                            info.semaphore = semaphore
                            info.value = value
                            info.stageMask = allStages
                            semaphores[nextSemaphore] = info
                            nextSemaphore += 1
                        }
                        var start = 0
                        var nextCommand = 0
                        while start < count {
                            let value = entry(start).value
                            var end = start
                            while end + 1 < count, entry(end + 1).value == value { end += 1 }
                            let firstWait = nextSemaphore
                            entry(start).context._withUnsafeGuaranteedRef {
                                for operation in $0.waits.elements { add(operation.semaphore, operation.value) }
                            }
                            let firstSignal = nextSemaphore
                            entry(end).context._withUnsafeGuaranteedRef {
                                for operation in $0.signals.elements { add(operation.semaphore, operation.value) }
                                add(timeline.handle, value)
                                for semaphore in $0.presentSignals.elements { add(semaphore, 0) }
                            }
                            let firstCommand = nextCommand
                            for index in start...end {
                                entry(index).context._withUnsafeGuaranteedRef { context in
                                    for part in 0..<context.submittedCommandBufferCount {
                                        var command = VkCommandBufferSubmitInfo()
                                        command.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO
                                        command.commandBuffer = context.submittedCommandBuffer(at: part)
                                        commands[nextCommand] = command
                                        nextCommand += 1
                                    }
                                }
                            }
                            var submit = VkSubmitInfo2()
                            submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2
                            submit.waitSemaphoreInfoCount = UInt32(firstSignal - firstWait)
                            submit.pWaitSemaphoreInfos = UnsafePointer(semaphores.baseAddress.map { $0 + firstWait })
                            submit.signalSemaphoreInfoCount = UInt32(nextSemaphore - firstSignal)
                            submit.pSignalSemaphoreInfos = UnsafePointer(semaphores.baseAddress.map { $0 + firstSignal })
                            submit.commandBufferInfoCount = UInt32(nextCommand - firstCommand)
                            submit.pCommandBufferInfos = UnsafePointer(commands.baseAddress.map { $0 + firstCommand })
                            submits[submitCount] = submit
                            submitCount += 1
                            start = end + 1
                        }
                        return device.queueSubmit(submits.baseAddress, count: UInt32(submitCount))
                    }
                }
            }
        }
    }
}
