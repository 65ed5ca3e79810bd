import DetourCore

/// The JSON report: the `detour-report/1` contract scripts rely on.
///
/// Fields may be added; the ones here are never renamed. `better` holds the index in `tasks` of
/// the better side on each figure, or `null` when neither is better. The report is written
/// straight into bytes (``JSONStream``): a large trip's report is never held as a tree.
public enum JSONReport {
    /// The value of the `format` field.
    public static let formatName = "detour-report/1"

    /// The report of `plan`, pretty-printed and ending in a newline, a chunk at a time into `sink`.
    public static func write(plan: Plan, warnings: [Diagnostic], to sink: @escaping ReportSink) {
        var json = JSONStream(capacity: ReportChunk.size + (1 << 12), sink: sink)
        json.object { json in
            json.member("format", string: formatName)
            json.member("title", string: plan.title)
            json.member("traveler", string: plan.traveler?.text)
            json.member("today", string: plan.today.description)
            json.member("travel")
            travel(plan, into: &json)
            json.member("currency", string: plan.rates?.currency.code)
            json.member("rates")
            json.object { json in
                for (currency, rate) in (plan.rates?.rates ?? [:]).sorted(by: { $0.key.code < $1.key.code }) {
                    json.member(named: currency.code)
                    json.number(rate.description)
                }
            }
            json.member("totals")
            totals(plan.totals, into: &json)
            json.member("budget")
            budget(plan.budget, into: &json)
            json.member("sections")
            json.array(plan.sections) { json, section in
                json.object { json in
                    json.member("name", string: section.kind.rawValue)
                    json.member("destinations")
                    json.array(section.destinations, destination)
                }
            }
            json.member("warnings")
            json.array(warnings, warning)
        }
        json.newline()
        json.flush()
    }

    /// The assumptions behind every travel time: the default mode, speeds and detour factor.
    static func travel(_ plan: Plan, into json: inout JSONStream) {
        json.object { json in
            json.member("default_mode", string: plan.defaultTravel.rawValue)
            json.member("prefer", string: plan.preference.rawValue)
            json.member("detour_factor")
            json.number("\(Travel.detourFactor)")
            json.member("speeds_kmh")
            json.object { json in
                for mode in TravelMode.allCases {
                    json.member(named: mode.rawValue)
                    json.number("\(Int(mode.kilometresPerHour))")
                }
            }
        }
    }

    static func destination(_ json: inout JSONStream, _ planned: PlannedDestination) {
        let destination = planned.destination
        json.object { json in
            json.member("name", string: destination.name)
            json.member("location")
            location(destination.location, into: &json)
            json.member("arrival", string: destination.arrival.description)
            json.member("departure", string: destination.departure.description)
            json.member("nights", int: destination.nights)
            json.member("detours")
            json.array(planned.detours, detour)
            json.member("totals")
            totals(planned.totals, into: &json)
            json.member("budget")
            budget(planned.budget, into: &json)
            json.member("day_hours")
            json.number(planned.dayHours.hoursText)
            json.member("available_minutes", int: planned.availableMinutes)
            json.member("over_by_minutes", int: planned.overByMinutes)
            json.member("feasible")
            json.bool(planned.isFeasible)
            json.member("schedule")
            json.array(planned.schedule) { json, day in
                json.object { json in
                    json.member("day", string: day.day.description)
                    json.member("items")
                    json.array(day.items) { json, item in
                        json.object { json in
                            json.member("detour", int: item.detour)
                            json.member("task", int: item.task)
                            json.member("minutes", int: item.minutes)
                            json.member("days", int: item.days)
                        }
                    }
                }
            }
            json.member("unscheduled")
            json.array(planned.unscheduled) { json, item in
                json.object { json in
                    json.member("detour", int: item.detour)
                    json.member("task", int: item.task)
                }
            }
        }
    }

    static func money(_ json: inout JSONStream, _ money: Money) {
        json.object { json in
            json.member("amount")
            json.number(money.amountText)
            json.member("currency", string: money.currency.code)
        }
    }

    static func totals(_ totals: Totals, into json: inout JSONStream) {
        json.object { json in
            json.member("cost")
            json.array(totals.costs, money)
            json.member("cost_in_currency")
            if let cost = totals.costInCurrency { money(&json, cost) } else { json.null() }
            json.member("minutes", int: totals.minutes)
            json.member("chosen", int: totals.chosen)
            json.member("undecided", int: totals.undecided)
        }
    }

    static func budget(_ outcome: BudgetOutcome?, into json: inout JSONStream) {
        guard let outcome else { return json.null() }
        json.object { json in
            json.member("amount")
            json.number(outcome.budget.amountText)
            json.member("currency", string: outcome.budget.currency.code)
            json.member("spent")
            if let spent = outcome.spent { money(&json, spent) } else { json.null() }
            json.member("within")
            json.bool(outcome.within)
            json.member("optimal")
            json.bool(outcome.optimal)
            json.member("lower_bound_minutes", int: outcome.lowerBoundMinutes)
        }
    }

    static func detour(_ json: inout JSONStream, _ detour: PlannedDetour) {
        json.object { json in
            json.member("title", string: detour.title)
            json.member("draft")
            json.bool(detour.isDraft)
            json.member("tasks")
            json.array(detour.tasks, task)
            json.member("better")
            json.object { json in
                json.member("duration", int: detour.better.duration)
                json.member("cost", int: detour.better.cost)
                json.member("distance", int: detour.better.distance)
                json.member("total_time", int: detour.better.totalTime)
            }
            json.member("recommended", int: detour.recommendation.side)
            json.member("recommended_because", string: Formatting.reason(detour.recommendation))
            json.member("chosen", int: detour.chosen)
            json.member("chosen_because", string: detour.chosenBecause?.rawValue)
        }
    }

    static func task(_ json: inout JSONStream, _ planned: PlannedTask) {
        let task = planned.task
        json.object { json in
            json.member("name", string: task.name)
            json.member("duration_minutes", int: task.duration.minutes)
            json.member("cost")
            money(&json, task.cost)
            json.member("location")
            if let point = task.location { location(point, into: &json) } else { json.null() }
            // Millimetres: enough for scripts to sum and compare without the report's rounding.
            json.member("distance_m")
            if let meters = planned.distanceMeters {
                json.number(Formatting.fixed(meters, digits: 3))
            } else {
                json.null()
            }
            json.member("route_m")
            if let meters = planned.routeMeters {
                json.number(Formatting.fixed(meters, digits: 3))
            } else {
                json.null()
            }
            json.member("travel_mode", string: planned.travelMode.rawValue)
            json.member("travel_minutes", int: planned.travelMinutes)
            json.member("total_minutes", int: planned.totalMinutes)
            json.member("pros")
            json.array(task.pros) { json, text in json.string(text) }
            json.member("cons")
            json.array(task.cons) { json, text in json.string(text) }
        }
    }

    static func location(_ point: Coordinate, into json: inout JSONStream) {
        json.object { json in
            json.member("lat")
            json.number("\(point.latitude)")
            json.member("lon")
            json.number("\(point.longitude)")
        }
    }

    static func warning(_ json: inout JSONStream, _ diagnostic: Diagnostic) {
        json.object { json in
            json.member("code", string: diagnostic.code.rawValue)
            json.member("path", string: diagnostic.path ?? "")
            json.member("line", int: diagnostic.position?.line)
            json.member("message", string: diagnostic.fullMessage)
        }
    }
}
