/// What an `InputCollector` does with samples while its lifecycle is not active (inactive
/// or background). Its display link is paused then, so nothing is delivered either way
/// and the app is not woken; the policy decides what the first frame after
/// `didBecomeActive()` holds.
public enum InactiveInputPolicy: Sendable, Hashable {
    /// As UIKit does: when the app resigns active, samples not yet delivered are dropped,
    /// and each contact that is down (its last sample began or moved) is cancelled: the
    /// first frame after reactivation carries one `.cancelled` sample for it (its last
    /// sample's values and time), and its later samples are dropped until it begins
    /// again. Samples pushed while not active are dropped. Nothing is held in the
    /// background. Every dropped sample is counted in `discardedSampleCount`.
    case discard
    /// Samples pushed while not active are held, as are those not yet delivered, and the
    /// first frame after reactivation carries them all, in order (up to the collector's
    /// `capacity`; beyond it the oldest are dropped and counted).
    case deliverOnReactivation
}
