package io.github.odrust.maven.detect;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * The planner loop of a goal whose experiments the engine plans one at a time (diagnose, repair,
 * detect-id): ask the engine for the next step, run the experiment it asks for, append its record
 * to the goal's history file as it ends, and ask again, until the engine says it is done (a
 * verdict, or its budget spent). A killed run resumes: the records already in the history that
 * belong to this goal go back to the engine, and new experiments are numbered after every record
 * of the file. Detection's batched, parallel loop is {@link Detector}.
 *
 * @param <S> the engine's step ({@code DiagnoseStep}, {@code RepairStep}, {@code IdStep})
 */
public final class PlannerLoop<S> {
    /** What one goal supplies. */
    public interface Goal<S> {
        /**
         * Asks the engine for the next step; {@code nextId} is the id a new experiment gets: one
         * more than the records in the history file.
         */
        S next(int nextId) throws MojoExecutionException;

        /** Whether {@code step} ends the loop (the engine is done). */
        boolean done(S step);

        /** Runs the experiment {@code step} asks for; returns its record. */
        JsonObject run(S step) throws MojoExecutionException;

        /** The experiment in an error message: "diagnose experiment 3". */
        String name(S step);
    }

    private final ExperimentLog history;
    private final List<JsonObject> records;
    private final int resumed;
    /** Records of this goal that this run made before the loop began (a split cause's part: its first test's). */
    private final int thisRun;

    private After<S> after = (step, record, ms) -> {};

    /** What runs after each experiment's record is appended. */
    @FunctionalInterface
    public interface After<S> {
        /** {@code step} asked for the experiment, {@code record} is what was appended, {@code ms} its time. */
        void accept(S step, JsonObject record, long ms);
    }

    /**
     * A loop over {@code history}: {@code records} (the request's history, which the engine sees)
     * gets the records of {@code history} that {@code mine} accepts, and then each new record.
     */
    public PlannerLoop(ExperimentLog history, List<JsonObject> records, Predicate<JsonObject> mine) {
        this.history = history;
        this.records = records;
        int earlier = 0;
        int now = 0;
        int i = 0;
        for (JsonElement r : history.history()) {
            if (mine.test(r.getAsJsonObject())) {
                records.add(r.getAsJsonObject());
                if (i < history.loaded()) {
                    earlier++;
                } else {
                    now++;
                }
            }
            i++;
        }
        this.resumed = earlier;
        this.thisRun = now;
    }

    /** How many records of an earlier run this loop goes on from (0 for a fresh one). */
    public int resumed() {
        return resumed;
    }

    /**
     * Says, when there is one, that this loop continues an earlier run ("continuing an earlier
     * repair of T: ...") or goes on from records this run made for the same test before (a part
     * of a split cause begins with its first test's: "repair of T: goes on from 4 experiments
     * recorded earlier in this run for the same test").
     */
    public void sayResumed(org.apache.maven.plugin.logging.Log log, String what) {
        if (resumed > 0) {
            log.info("continuing an earlier " + what + ": "
                    + io.github.odrust.maven.core.Words.count(resumed, "experiment")
                    + " already recorded (those made on code that changed since run again)");
        } else if (thisRun > 0) {
            log.info(what + ": goes on from " + io.github.odrust.maven.core.Words.count(thisRun, "experiment")
                    + " recorded earlier in this run for the same test");
        }
    }

    /** Calls {@code after} with each experiment's step, record and time (ms) once the record is appended. */
    public PlannerLoop<S> after(After<S> after) {
        this.after = after;
        return this;
    }

    /** Runs the goal's experiments until the engine is done; returns the step that said so. */
    public S run(Goal<S> goal) throws MojoExecutionException {
        while (true) {
            S step = goal.next(history.size() + 1);
            if (goal.done(step)) {
                return step;
            }
            long start = System.nanoTime();
            JsonObject record = goal.run(step);
            try {
                history.append(record);
            } catch (IOException e) {
                throw new MojoExecutionException("could not record " + goal.name(step) + ": " + e.getMessage(), e);
            }
            records.add(record);
            after.accept(step, record, (System.nanoTime() - start) / 1_000_000);
        }
    }
}
