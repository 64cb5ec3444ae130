"""Results, read side: the final standings table and rating changes shown on pages and mails.

Results are stored, and ratings updated, by games.services.finish when a game ends.
"""

from __future__ import annotations

from typing import Any

from games.models import Result

# Result categories whose engine key reads badly once title-cased.
CATEGORY_NAMES = {"vp_track": "VP track"}


def result_table(result: dict[str, Any] | None, seats: list[Any]) -> dict[str, Any] | None:
    """The final standings: rows by rank, one column per scoring category the engine reports."""
    if not result or not result.get("seats"):
        return None
    columns: list[str] = []
    for row in result["seats"]:
        columns += [k for k in row.get("breakdown", {}) if k not in columns]
    resigned = set(result.get("resigned", []))
    rows = [
        {
            "rank": row["rank"],
            "seat": row["seat"],
            "score": row["score"],
            "label": seats[row["seat"]].player_label()
            if row["seat"] < len(seats)
            else f"Seat {row['seat'] + 1}",
            "resigned": row["seat"] in resigned,
            "timeout": row["seat"] == result.get("timeout"),
            "cells": [row.get("breakdown", {}).get(c, 0) for c in columns],
        }
        for row in sorted(result["seats"], key=lambda r: (r["rank"], r["seat"]))
    ]
    names = [CATEGORY_NAMES.get(c, c.replace("_", " ").capitalize()) for c in columns]
    return {"columns": names, "rows": rows, "ended_by": result.get("ended_by", "end")}


def ordinal(mu: float | None, sigma: float | None) -> float | None:
    """The shown rating: a conservative estimate (mu - 3 sigma), as openskill's ordinal."""
    if mu is None or sigma is None:
        return None
    return mu - 3 * sigma


def rating_rows(result: Result) -> list[dict[str, Any]]:
    """Each seat's rating before and after, and the change, for the results page."""
    rows = []
    for row in result.seats.select_related("user"):
        old, new = ordinal(row.mu_before, row.sigma_before), ordinal(row.mu_after, row.sigma_after)
        rows.append(
            {
                "seat": row.seat,
                "rank": row.rank,
                "who": str(row.user) if row.user else row.bot or "—",
                "before": old,
                "after": new,
                "change": None if old is None or new is None else new - old,
            }
        )
    return rows
