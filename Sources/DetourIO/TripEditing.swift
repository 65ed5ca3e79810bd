import DetourCore

/// A change made in the app, from a trip file's bytes to the bytes of the changed trip: read into
/// a draft by the format's reader, changed (``TripEdit``), judged whole by the validator, and
/// written back in the same format by its writer.
///
/// The file is written in the writer's canonical form (`docs/trip-format.md` says what that keeps).
public enum TripEditing {
    /// What became of a change.
    public enum Outcome: Sendable {
        /// The file as it is cannot be changed: it does not read as a valid trip. Its diagnostics.
        case unreadable([Diagnostic])
        /// The change would make the trip invalid: every diagnostic of the changed trip.
        case refused([Diagnostic])
        /// The changed trip, and its file's new bytes.
        case changed(Trip, [UInt8])
        /// What the change names is not in the trip: the file has changed since it was read.
        case missing
    }

    /// `edit` made to the trip `bytes` hold, written in `format`; `path` is where the edit's own
    /// fields are, as diagnostics name them.
    public static func apply(
        _ edit: TripEdit, to bytes: [UInt8], format: TripFormat, limits: ReadLimits = .standard
    ) -> (outcome: Outcome, path: String) {
        let read: ReadResult
        switch format {
        case .json: read = TripJSONReader.read(bytes, limits: limits)
        case .gpx: read = TripGPXReader.read(BufferSource(bytes), limits: limits)
        }
        guard let draft = read.draft, !read.diagnostics.containsErrors else {
            return (.unreadable(read.diagnostics), "")
        }
        let before = TripValidator.validate(draft, limits: limits.trip)
        guard before.trip != nil else { return (.unreadable(before.diagnostics), "") }
        do {
            return (changed(try edit.applied(to: draft), format: format, limits: limits), edit.path(in: draft))
        } catch {
            return (.missing, "")
        }
    }

    /// A new trip titled `title` with `edit` made to it (or none: a trip with no destinations
    /// yet), as trip JSON.
    public static func create(
        _ edit: TripEdit?, title: String, limits: ReadLimits = .standard
    ) -> (outcome: Outcome, path: String) {
        let draft = TripEdit.newTrip(title: title)
        guard let edit else { return (changed(draft, format: .json, limits: limits), "") }
        do {
            return (changed(try edit.applied(to: draft), format: .json, limits: limits), edit.path(in: draft))
        } catch {
            return (.missing, "")
        }
    }

    /// `draft` judged whole and, when it holds, written in `format`.
    static func changed(_ draft: TripDraft, format: TripFormat, limits: ReadLimits) -> Outcome {
        let outcome = TripValidator.validate(draft, limits: limits.trip)
        guard let trip = outcome.trip else { return .refused(outcome.diagnostics) }
        switch format {
        case .json: return .changed(trip, Array(TripJSONWriter.write(trip).utf8))
        case .gpx:
            do {
                return .changed(trip, Array(try TripGPXWriter.write(trip).utf8))
            } catch {
                return .refused([Diagnostic(.readFailed, "the trip could not be written as GPX: \(error.message)")])
            }
        }
    }
}
