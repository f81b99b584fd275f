// GlimpseIntents is the home of what Apple's App Intents does not define: the engine's named property
// comparisons (`QueryableProperties`, `PropertyComparator`, `EntityQueryComparison`, `PropertySort`),
// their text syntax, and ranked text search. Apple's vocabulary itself lives in AppIntentsCore (App
// Intents without its macros, so no swift-syntax) and VisualIntelligence, which every user of this module
// sees; code that wants `@UnionValue` or `@ComputedProperty` imports AppIntents as well.
@_exported public import AppIntentsCore
@_exported public import VisualIntelligence
