import PointerInput

/// A way of drawing a contact's end: a prediction, or none (the latest sample).
public struct Contender: Sendable {
    /// The name the tables use.
    public var name: String
    /// The prediction, or nil for none.
    public var prediction: InputPrediction?

    /// A contender named `name` predicting with `prediction`.
    public init(name: String, prediction: InputPrediction?) {
        self.name = name
        self.prediction = prediction
    }

    /// The latest sample, unpredicted.
    public static let none = Contender(name: "none", prediction: nil)
    /// What `InputCollector()` predicts with.
    public static let standard = Contender(name: "default", prediction: InputPrediction())
    /// Every other built-in predictor, with its defaults, under the shared rules.
    public static let alternatives = [
        Contender(name: "linear resampling", prediction: InputPrediction(predictor: LinearResamplingPredictor())),
        Contender(name: "least squares", prediction: InputPrediction(predictor: LeastSquaresPredictor())),
        Contender(name: "Kalman CV", prediction: InputPrediction(predictor: KalmanPredictor(model: .constantVelocity))),
        Contender(name: "Kalman CA", prediction: InputPrediction(predictor: KalmanPredictor(model: .constantAcceleration))),
    ]
    /// None, the default, then the alternatives.
    public static let all = [none, standard] + alternatives
}
