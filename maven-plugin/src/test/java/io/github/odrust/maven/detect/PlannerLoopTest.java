package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlannerLoopTest {
    private static JsonObject record(int id, String test) {
        JsonObject o = new JsonObject();
        o.addProperty("id", id);
        o.addProperty("test", test);
        return o;
    }

    /** A planner that asks for experiments of {@code test} until it has seen {@code wanted} of them. */
    private static final class Planner implements PlannerLoop.Goal<Integer> {
        final String test;
        final int wanted;
        final List<JsonObject> seen;
        final List<Integer> asked = new ArrayList<>();

        Planner(String test, int wanted, List<JsonObject> seen) {
            this.test = test;
            this.wanted = wanted;
            this.seen = seen;
        }

        @Override
        public Integer next(int nextId) {
            asked.add(nextId);
            return seen.size() >= wanted ? null : nextId;
        }

        @Override
        public boolean done(Integer step) {
            return step == null;
        }

        @Override
        public JsonObject run(Integer step) {
            return record(step, test);
        }

        @Override
        public String name(Integer step) {
            return "test experiment " + step;
        }
    }

    @Test
    void runsWhatThePlannerAsksAndAppendsEachRecordToTheHistoryAndTheRequest(@TempDir Path dir) throws Exception {
        ExperimentLog history = ExperimentLog.create(dir.resolve("experiments.jsonl"));
        List<JsonObject> records = new ArrayList<>();
        PlannerLoop<Integer> loop = new PlannerLoop<>(history, records, r -> true);
        Planner planner = new Planner("a#t", 2, records);
        assertNull(loop.run(planner));
        assertEquals(List.of(1, 2, 3), planner.asked);
        assertEquals(2, records.size());
        assertEquals(2, ExperimentLog.load(dir.resolve("experiments.jsonl")).size());
    }

    @Test
    void resumesFromItsOwnRecordsAndNumbersAfterEveryRecordOfTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog first = ExperimentLog.create(file);
        first.append(record(1, "a#t"));
        first.append(record(2, "b#t"));
        ExperimentLog history = ExperimentLog.load(file);
        List<JsonObject> records = new ArrayList<>();
        PlannerLoop<Integer> loop = new PlannerLoop<>(
                history, records, r -> "a#t".equals(r.get("test").getAsString()));
        assertEquals(1, records.size());
        assertEquals(1, loop.resumed(), "one record of an earlier run is this goal's");
        Planner planner = new Planner("a#t", 2, records);
        loop.run(planner);
        assertEquals(List.of(3, 4), planner.asked);
        assertEquals(3, records.get(1).get("id").getAsInt());
        assertEquals(3, history.size());
    }

    @Test
    void aRecordThatCannotBeWrittenEndsTheLoopNamingTheExperiment(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog history = ExperimentLog.create(file);
        Files.delete(file);
        Files.createDirectory(file);
        List<JsonObject> records = new ArrayList<>();
        PlannerLoop<Integer> loop = new PlannerLoop<>(history, records, r -> true);
        MojoExecutionException e =
                assertThrows(MojoExecutionException.class, () -> loop.run(new Planner("a#t", 1, records)));
        assertTrue(e.getMessage().startsWith("could not record test experiment 1: "), e.getMessage());
        assertEquals(0, records.size());
    }

    @Test
    void itSaysWhetherItContinuesAnEarlierRunOrRecordsThisRunMadeForTheSameTest(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog first = ExperimentLog.create(file);
        first.append(record(1, "a#t"));
        ExperimentLog history = ExperimentLog.load(file);
        assertEquals(1, history.loaded());
        List<String> said = new ArrayList<>();
        org.apache.maven.plugin.logging.SystemStreamLog log = new org.apache.maven.plugin.logging.SystemStreamLog() {
            @Override
            public void info(CharSequence content) {
                said.add(content.toString());
            }
        };
        // a cause's repair in this run: a#t's record of the earlier run, and two of its own
        List<JsonObject> records = new ArrayList<>();
        PlannerLoop<Integer> cause = new PlannerLoop<>(
                history, records, r -> "a#t".equals(r.get("test").getAsString()));
        cause.sayResumed(log, "repair of a#t and 1 other test");
        cause.run(new Planner("a#t", 3, records));
        assertEquals(
                List.of("continuing an earlier repair of a#t and 1 other test: 1 experiment already recorded"
                        + " (those made on code that changed since run again)"),
                said);
        // a part of it, later in the same run, begins with the same first test: 3 records, 2 of this run
        said.clear();
        PlannerLoop<Integer> part = new PlannerLoop<>(
                history, new ArrayList<>(), r -> "a#t".equals(r.get("test").getAsString()));
        part.sayResumed(log, "repair of a#t");
        assertEquals(
                List.of("continuing an earlier repair of a#t: 1 experiment already recorded"
                        + " (those made on code that changed since run again)"),
                said);
        // in a fresh log, only this run's
        said.clear();
        ExperimentLog fresh = ExperimentLog.create(dir.resolve("fresh.jsonl"));
        fresh.append(record(1, "a#t"));
        fresh.append(record(2, "a#t"));
        assertEquals(0, fresh.loaded());
        new PlannerLoop<>(fresh, new ArrayList<>(), r -> true).sayResumed(log, "repair of a#t");
        assertEquals(
                List.of("repair of a#t: goes on from 2 experiments recorded earlier in this run for the same test"),
                said);
    }
}
