extension InputSample {
    /// This sample with the values `update` reports for the properties this one expects
    /// updates for (UIKit's `touchesEstimatedPropertiesUpdated(_:)`). Everything else is
    /// kept: time, phase, contact, `updateSequence`, and the properties that were final or
    /// not expecting an update. A refinement never adds an expectation.
    public func refined(by update: InputSample) -> InputSample {
        let refinable = estimatedPropertiesExpectingUpdates
        var result = self
        if refinable.contains(.position) { result.position = update.position }
        if refinable.contains(.pressure) { result.pressure = update.pressure }
        if refinable.contains(.tilt) { result.tilt = update.tilt }
        result.estimatedPropertiesExpectingUpdates = update.estimatedPropertiesExpectingUpdates.intersection(refinable)
        // A property still expecting an update is still an estimate.
        result.estimatedProperties = estimatedProperties.subtracting(refinable)
            .union(update.estimatedProperties.intersection(refinable))
            .union(result.estimatedPropertiesExpectingUpdates)
        return result
    }

    /// Whether `other` is a refinement of this sample: same contact and `updateSequence`.
    func isRefined(by other: InputSample) -> Bool {
        updateSequence != nil && other.updateSequence == updateSequence && other.contactID == contactID
    }
}
