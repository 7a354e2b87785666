package io.github.odrust.maven.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The time left of a goal whose engine plans one experiment at a time, unit after unit (causes
 * to repair, tests to diagnose, candidates to pin; docs/detect.md, "Estimates"). A unit is
 * predicted to take the median number of experiments of the units that ended (before any, a
 * {@code prior}; never more than a {@code cap}, the goal's budget per unit), each at the mean cost
 * of the experiments so far (before any, a {@code priorMillis} from elsewhere, e.g. detect's
 * experiments, or no time at all). Units may also follow a first one (a cause's other tests,
 * which mostly check what the first found): those are predicted apart, at their own prior and the
 * median of the followers that ended. The prediction at the start is kept, to be set against what
 * the goal took at its end.
 */
public final class Eta {
    private final String unit;
    private final int prior;
    private final int cap;
    private final long priorMillis;
    private int units;
    /** Units ended. */
    private int done;
    /** The experiments of each ended unit that ran any here (a unit an earlier run recorded whole runs none). */
    private final List<Integer> ended = new ArrayList<>();

    /** Of {@link #units}, those that follow a first one; their prior, how many ended, what they took. */
    private int followers;

    private final int followerPrior;
    private int followersDone;
    private final List<Integer> endedFollowers = new ArrayList<>();
    private boolean currentFollows;

    private int current;
    /** What the planner knows the unit under way has left after its last experiment; -1: unknown. */
    private int currentKnownLeft = -1;

    private boolean underWay;
    /** What the unit under way is, said after its number ("cause 2"); null: nothing more. */
    private String about;

    private int experiments;
    private long millis;
    private final int predictedExperiments;
    private final long predictedMillis;
    /** The units at the start (a split adds units later). */
    private final int predictedUnits;

    private long lastSaid;
    private int lastUnit = -1;

    /** Whether the planner predicts the experiments left ({@link #planned(String, int, int, long, int, String)}). */
    private final boolean planner;
    /** What the planner's prediction rests on. */
    private final String basis;
    /** The experiments left as the planner last said, and those that ran since. */
    private int plannedLeft;

    private int ranSincePlanned;

    /**
     * {@code units} units of experiments named {@code unit} ("cause"), {@code prior} experiments
     * each before any ended, at most {@code cap} (0: no cap), {@code priorMillis} each before any
     * ran (0: unknown).
     */
    public Eta(String unit, int units, int prior, int cap, long priorMillis) {
        this(unit, units, prior, 0, 0, cap, priorMillis);
    }

    /**
     * As {@link #Eta(String, int, int, int, long)}, with {@code followers} more units that follow a
     * first one, {@code followerPrior} experiments each before one ended.
     */
    public Eta(String unit, int firsts, int prior, int followers, int followerPrior, int cap, long priorMillis) {
        this(unit, firsts, prior, followers, followerPrior, cap, priorMillis, -1, null);
    }

    /**
     * {@code units} units whose experiments left the planner predicts ({@code left} at the start,
     * then {@link #planned(int)} with each experiment) instead of this estimate's median of the
     * units that ended; {@code priorMillis} each before any ran (0: unknown); {@code basis} says
     * what the planner's prediction rests on ("from each test's counted calls").
     */
    public static Eta planned(String unit, int units, int cap, long priorMillis, int left, String basis) {
        int perUnit = units > 0 ? (left + units - 1) / units : left;
        return new Eta(unit, units, perUnit, 0, 0, cap, priorMillis, Math.max(0, left), basis);
    }

    private Eta(
            String unit,
            int firsts,
            int prior,
            int followers,
            int followerPrior,
            int cap,
            long priorMillis,
            int plannedLeft,
            String basis) {
        this.plannedLeft = plannedLeft;
        this.planner = plannedLeft >= 0;
        this.basis = basis;
        this.unit = unit;
        this.units = firsts + followers;
        this.prior = prior;
        this.followers = followers;
        this.followerPrior = followerPrior;
        this.cap = cap;
        this.priorMillis = priorMillis;
        this.predictedExperiments = experimentsLeft();
        this.predictedMillis = leftMillis();
        this.predictedUnits = units;
    }

    /** A unit starts. */
    public void begin() {
        begin(false);
    }

    /** A unit starts: one that follows a first one ({@code follows}), or a first. */
    public void begin(boolean follows) {
        begin(follows, follows);
    }

    /**
     * A unit starts that was counted as a follower ({@code counted}) or a first; {@code follows}
     * says what it is (a cause's test whose first diagnosis was not confirmed is diagnosed as a
     * first, and priced so from now on).
     */
    public void begin(boolean follows, boolean counted) {
        if (underWay) {
            end();
        }
        if (counted && !follows && followers > followersDone) {
            followers--;
        }
        underWay = true;
        current = 0;
        currentKnownLeft = -1;
        about = null;
        currentFollows = follows && followersDone < followers;
    }

    /** Names the unit under way in {@link #text()}: "repair 3 of 8 (cause 1, 2 of its tests)". */
    public void about(String what) {
        about = what;
    }

    /**
     * The planner's experiments left from the one about to run on (with an estimate from
     * {@link #planned(String, int, int, long, int, String)}; ignored otherwise, and when negative).
     */
    public void planned(int left) {
        if (planner && left >= 0) {
            plannedLeft = left;
            ranSincePlanned = 0;
        }
    }

    /**
     * What the planner knows the unit under way has left once the experiment now ending is
     * recorded (a repair verifying a patch: the checks after this one), or -1 when it does not
     * know; said before each {@link #ran(long)}, as it holds for that experiment only.
     */
    public void knownLeft(int left) {
        currentKnownLeft = left;
    }

    /** One experiment of the unit under way ran, in {@code ms}. */
    public void ran(long ms) {
        ranSincePlanned++;
        current++;
        experiments++;
        millis += Math.max(0, ms);
    }

    /**
     * One experiment of the unit under way ran, in {@code ms}; {@code say} gets the time left
     * when it is {@link #due}.
     */
    public void ran(long ms, java.util.function.Consumer<String> say) {
        ran(ms);
        String left = due(System.nanoTime());
        if (left != null) {
            say.accept(left);
        }
    }

    /** The unit under way ended. */
    public void end() {
        if (underWay) {
            if (current > 0) {
                (currentFollows ? endedFollowers : ended).add(current);
            }
            done++;
            if (currentFollows) {
                followersDone++;
            }
            underWay = false;
            current = 0;
            currentKnownLeft = -1;
            about = null;
        }
    }

    /**
     * At least {@code before} units ended before the one under way: where the planner says the
     * run stands (a resumed run, or units that needed no experiment). The units skipped so are
     * taken as first ones (no goal that has followers calls this).
     */
    public void position(int before) {
        done = Math.max(done, Math.min(before, units - (underWay ? 1 : 0)));
    }

    /** {@code n} more units (a cause split in parts adds them). */
    public void more(int n) {
        units += n;
    }

    /**
     * The cost of one experiment in a fresh JVM from detect's report ({@code time}), a prior for a
     * goal that follows it: the median start-up cost of a fresh JVM plus the mean tests' and
     * odrust's own time per experiment (shared JVMs' cheaper starts are left out: what follows
     * detect runs its checks fresh); the mean experiment when no start-up cost was measured; 0
     * when unknown.
     */
    public static long perExperiment(io.github.odrust.engine.protocol.Summary.TimeSpent time) {
        if (time == null || time.experiments == 0) {
            return 0;
        }
        if (time.cost0Ms != null) {
            return time.cost0Ms + (time.testsMs + time.odrustMs) / time.experiments;
        }
        return (time.jvmMs + time.odrustMs) / time.experiments;
    }

    /** Experiments a first unit is expected to take. */
    int perUnit() {
        return perUnit(ended, prior);
    }

    private int perUnit(List<Integer> endedUnits, int unitPrior) {
        int per = unitPrior;
        if (!endedUnits.isEmpty()) {
            List<Integer> sorted = new ArrayList<>(endedUnits);
            Collections.sort(sorted);
            per = sorted.get((sorted.size() - 1) / 2);
        }
        per = Math.max(1, per);
        return cap > 0 ? Math.min(per, cap) : per;
    }

    /**
     * Experiments still to run: the rest of the unit under way (at least one, unless its planner
     * said what it has left: {@link #knownLeft(int)}), and the units not started.
     */
    public int experimentsLeft() {
        if (planner) {
            return Math.max(underWay ? 1 : 0, plannedLeft - ranSincePlanned);
        }
        int per = perUnit();
        int perFollower = perUnit(endedFollowers, followerPrior);
        int followersLeft = Math.max(0, followers - followersDone - (underWay && currentFollows ? 1 : 0));
        int firstsLeft = Math.max(0, units - done - (underWay ? 1 : 0) - followersLeft);
        int left = firstsLeft * per + followersLeft * perFollower;
        if (underWay) {
            left += currentLeft(currentFollows ? endedFollowers : ended, currentFollows ? followerPrior : prior);
        }
        return left;
    }

    /**
     * The rest of the unit under way, which ran {@link #current} experiments: the median of the
     * units of its kind that ended, less what it ran; once it ran that many, the median of those
     * that ran longer than it has, else the prior when that is more, else as many again as it
     * ran (a unit that outlasted every other is as likely to end soon as late), never past the
     * cap; at least one. What its planner said it has left, when it said so, instead. (A repair
     * whose candidates all pass their failing order and fail a later check runs to its budget:
     * on light-4j's {@code config}, the 24th repair ran 172 experiments (its budget of 100 test
     * JVMs) after 23 of 4 to 7 each, and "~5 experiments left" was said for a minute.)
     */
    private int currentLeft(List<Integer> endedUnits, int unitPrior) {
        if (currentKnownLeft >= 0) {
            return currentKnownLeft;
        }
        int per = perUnit(endedUnits, unitPrior);
        if (current < per) {
            return per - current;
        }
        List<Integer> longer = new ArrayList<>();
        for (int n : endedUnits) {
            if (n > current) {
                longer.add(n);
            }
        }
        int total;
        if (!longer.isEmpty()) {
            total = perUnit(longer, unitPrior);
        } else if (unitPrior > current) {
            total = unitPrior;
        } else {
            total = 2 * current;
        }
        if (cap > 0) {
            total = Math.min(total, cap);
        }
        return Math.max(1, total - current);
    }

    /** The cost of one experiment: the mean so far, else the prior (0: unknown). */
    long perExperiment() {
        return experiments > 0 ? millis / experiments : priorMillis;
    }

    /** The predicted time left; 0 when no cost is known yet. */
    public long leftMillis() {
        return experimentsLeft() * perExperiment();
    }

    /** "cause 2 of 5, ~14 experiments (~3 min) left". */
    public String text() {
        int at = Math.min(units, done + (underWay ? 1 : 0));
        long left = leftMillis();
        return unit + " " + Math.max(1, at) + " of " + units + (about != null && underWay ? " (" + about + ")" : "")
                + ", ~" + Words.count(experimentsLeft(), "experiment")
                + (left > 0 ? " (~" + duration(left) + ")" : "") + " left";
    }

    /** "predicted ~40 experiments (~3 min: 9 per cause, 4.1 s each)" for the start, or without a time. */
    public String prediction() {
        String per = planner
                ? basis
                : perUnit() + " per " + unit
                        + (followers > 0
                                ? ", " + perUnit(endedFollowers, followerPrior) + " per other " + unit + " of a cause"
                                : "");
        return "predicted ~" + Words.count(predictedExperiments, "experiment")
                + (predictedMillis > 0
                        ? " (~" + duration(predictedMillis) + ": " + per + ", " + seconds(priorMillis) + " each)"
                        : " (" + per + ")");
    }

    /** "42 experiments in 3 min (predicted at the start: ~40 in ~2.5 min)" for the end. */
    public String outcome() {
        if (experiments == 0) {
            return "no experiment ran (no verdict needed one, or an earlier run recorded them)";
        }
        return Words.count(experiments, "experiment") + " in " + duration(millis) + " (predicted at the start: ~"
                + predictedExperiments + (predictedMillis > 0 ? " in ~" + duration(predictedMillis) : "") + ")";
    }

    /**
     * {@link #text()} when it is due: the first experiment of a unit, or {@link #EVERY_NANOS}
     * since it was last said; else null (a line per experiment would drown the experiments' own).
     */
    public String due(long nowNanos) {
        if (experimentsLeft() == 0) {
            return null; // the last unit's last experiment ran: the end line follows
        }
        int unitAt = done;
        if (unitAt == lastUnit && nowNanos - lastSaid < EVERY_NANOS) {
            return null;
        }
        lastUnit = unitAt;
        lastSaid = nowNanos;
        return text();
    }

    /** How often the time left is said at most, but for a new unit. */
    public static final long EVERY_NANOS = 10_000_000_000L;

    /** The experiments that ran. */
    public int experiments() {
        return experiments;
    }

    /** Their time (ms). */
    public long millis() {
        return millis;
    }

    /** The experiments predicted at the start. */
    public int predictedExperiments() {
        return predictedExperiments;
    }

    /** The time predicted at the start; 0 when no cost was known. */
    public long predictedMillis() {
        return predictedMillis;
    }

    /**
     * This goal's prediction at the start against what it took, for its output file's {@code
     * phases} (as report.json's): {@code phase}, {@code predicted_units} and {@code units} (at
     * the start and at the end: a split adds units), {@code experiments}, {@code actual_ms},
     * {@code predicted_experiments}, {@code predicted_ms} (absent when no cost was known), and
     * {@code earlier_records} when the goal went on from records of an earlier run (the
     * prediction covered their units too; what they ran is not in {@code experiments}), and the
     * end line's {@code text}.
     */
    public com.google.gson.JsonObject phase(String name, int earlierRecords) {
        com.google.gson.JsonObject o = new com.google.gson.JsonObject();
        o.addProperty("phase", name);
        o.addProperty("predicted_units", predictedUnits);
        o.addProperty("units", units);
        o.addProperty("experiments", experiments);
        o.addProperty("actual_ms", millis);
        o.addProperty("predicted_experiments", predictedExperiments);
        if (predictedMillis > 0) {
            o.addProperty("predicted_ms", predictedMillis);
        }
        if (earlierRecords > 0) {
            o.addProperty("earlier_records", earlierRecords);
        }
        o.addProperty("text", outcome());
        return o;
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** A duration read at a glance: 10.9 s, 4.5 min, 12 min, 3.4 h, 4.9 days. */
    public static String duration(long ms) {
        if (ms < 60_000) {
            return seconds(ms);
        }
        if (ms < 600_000) {
            return String.format(Locale.ROOT, "%.1f min", ms / 60_000.0);
        }
        if (ms < 3_600_000) {
            return Math.round(ms / 60_000.0) + " min";
        }
        if (ms < 48 * 3_600_000L) {
            return String.format(Locale.ROOT, "%.1f h", ms / 3_600_000.0);
        }
        return String.format(Locale.ROOT, "%.1f days", ms / 86_400_000.0);
    }
}
