package io.github.odrust.maven.detect;

import io.github.odrust.engine.protocol.Estimate;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.engine.protocol.NextStep;
import io.github.odrust.maven.core.Words;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The engine's estimates in words (docs/detect.md, "Estimates"): what each OD test found adds, on
 * the plan line; the phase and the time left for the whole run, on each progress line; what
 * each phase was predicted to cost and cost, at the end.
 */
final class EstimateText {
    private EstimateText() {}

    /**
     * The wall time left: rounds, confirmations and alone runs run {@code forks} at a time;
     * explanation experiments as many at a time as the batch under way has ({@code explaining}:
     * unrelated OD tests' experiments side by side), at most {@code forks}.
     */
    static long wallLeft(Estimate e, int forks, int explaining) {
        long left = 0;
        int side = Math.max(1, Math.min(forks, explaining));
        for (Estimate.Phase p : e.phases) {
            left += p.leftMs / ("minimize".equals(p.phase) ? side : Math.max(1, forks));
        }
        return left;
    }

    /**
     * "; then each OD test found adds 3 alone runs (~5.6 s) and about 12 explanation experiments
     * (~40 s)", or "" when rounds can find no more.
     */
    static String perOdTest(Estimate e, int forks) {
        if (e == null || e.perOdTest == null) {
            return "";
        }
        Estimate.PerOdTest t = e.perOdTest;
        StringBuilder b = new StringBuilder("; each OD test found adds ")
                .append(Words.count(t.alone, "alone run"))
                .append(known(t.aloneMs / Math.max(1, forks)));
        if (t.explain > 0) {
            b.append(" and about ")
                    .append(Words.count(t.explain, "explanation experiment"))
                    .append(known(t.explainMs));
        }
        return b.toString();
    }

    /**
     * With {@code odrust.isolation=classloader}, how the rounds' prediction splits: "2 in fresh JVMs
     * at ~0.6 s each, then 18 in shared JVMs at ~25 ms each once the isolation check passes (12 s
     * if it refuses them)"; null when no round is predicted to run shared.
     */
    static String sharedRounds(Estimate.Phase rounds, int forks) {
        if (rounds == null || rounds.shared == null || rounds.shared <= 0 || rounds.sharedMs == null) {
            return null;
        }
        int fresh = rounds.left - rounds.shared;
        long freshEach = fresh > 0 ? (rounds.leftMs - rounds.sharedMs) / fresh : 0;
        StringBuilder b = new StringBuilder();
        if (fresh > 0) {
            b.append(fresh)
                    .append(" in fresh JVMs at ~")
                    .append(brief(freshEach))
                    .append(" each, then ");
        }
        b.append(rounds.shared)
                .append(" in shared JVMs at ~")
                .append(brief(rounds.sharedMs / rounds.shared))
                .append(" each once the isolation check passes");
        if (fresh > 0) {
            b.append(" (")
                    .append(Detector.duration(freshEach * rounds.left / Math.max(1, forks)))
                    .append(" if it refuses them)");
        }
        return b.toString();
    }

    /** 25 ms, 0.6 s, 2.5 min. */
    private static String brief(long ms) {
        return ms < 100 ? ms + " ms" : Detector.duration(ms);
    }

    private static String known(long ms) {
        return ms > 0 ? " (~" + Detector.duration(ms) + ")" : "";
    }

    /**
     * The end of a progress line: where the phase of the next experiment stands, when it is not
     * in the line's own columns ("alone 12/75", "explanation 12 of the budget's 80"), and the
     * time left for the whole run ("~4 min left"), or "" before the baseline is done;
     * {@code explaining}: the explanation experiments of the next batch.
     */
    static String left(Experiment exp, NextStep.Progress progress, Estimate e, int forks, int explaining) {
        if (e == null || progress == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (exp.kind == ExperimentKind.ALONE) {
            Estimate.Phase alone = phase(e, "alone");
            if (alone != null) {
                b.append("  alone ").append(alone.done).append('/').append(alone.done + alone.left);
            }
        } else if (exp.kind.isMinimize() && progress.explainBudget > 0) {
            b.append("  explanation ")
                    .append(progress.explainSpent)
                    .append(" of the budget's ")
                    .append(progress.explainBudget);
        }
        if (!"done".equals(progress.phase)) {
            long ms = wallLeft(e, forks, explaining);
            if (ms > 0) {
                b.append("  ~").append(Detector.duration(ms)).append(" left");
            }
        }
        return b.toString();
    }

    private static Estimate.Phase phase(Estimate e, String name) {
        return e.phases.stream().filter(p -> name.equals(p.phase)).findFirst().orElse(null);
    }

    /** "rounds: 20 experiments in 51.0 s (predicted at its start: 20 in 48.2 s); ..." or "". */
    static String phases(List<Estimate.PhaseTime> phases) {
        return phases == null
                ? ""
                : phases.stream()
                        .filter(p -> p.text != null && !p.text.isEmpty())
                        .map(p -> p.text)
                        .collect(Collectors.joining("; "));
    }
}
