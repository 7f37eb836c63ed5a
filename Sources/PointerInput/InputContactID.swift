/// Which contact a sample belongs to: its device kind and its number on that kind. A touch
/// numbered 1 and a pen numbered 1 are different contacts.
public struct InputContactID: Sendable, Hashable, CustomStringConvertible {
    /// The device kind.
    public var device: InputDeviceKind
    /// The contact's number (`InputSample.contact`).
    public var contact: Int

    /// The contact `contact` of `device`.
    public init(device: InputDeviceKind, contact: Int) {
        self.device = device
        self.contact = contact
    }

    /// "touch 2", "pen 1", "pointer 0".
    public var description: String { "\(device) \(contact)" }
}

extension InputSample {
    /// The contact this sample belongs to.
    public var contactID: InputContactID { InputContactID(device: device, contact: contact) }
}

extension InputPhase {
    /// Whether the contact is down (touching, pressed) after a sample in this phase: began
    /// or moved. Hovering, ended and cancelled samples leave nothing down.
    public var isDown: Bool { self == .began || self == .moved }

    /// Whether a sample in this phase is the contact's last: ended or cancelled.
    public var endsContact: Bool { self == .ended || self == .cancelled }
}
