package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The CI examples of docs/ci/ (docs/ci.md) parse as YAML and do what the docs say: N shards of
 * one plan (the same seed, K/N from the CI system's index), the shards' output kept as artifacts,
 * and a merge job after them that fails on unlisted flaky tests; every odrust property they use
 * is one docs/configuration.md documents.
 */
class CiExamplesTest {
    private static final Path DOCS = Path.of("..", "docs");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(String name) throws Exception {
        return (Map<String, Object>)
                new Yaml().load(Files.readString(DOCS.resolve("ci").resolve(name), StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    /** The text of every {@code run:} of a job's steps. */
    private static String runs(Map<String, Object> job) {
        StringBuilder b = new StringBuilder();
        for (Object step : list(job.get("steps"))) {
            Object run = map(step).get("run");
            if (run != null) {
                b.append(run).append('\n');
            }
        }
        return b.toString();
    }

    private static String uses(Map<String, Object> job) {
        StringBuilder b = new StringBuilder();
        for (Object step : list(job.get("steps"))) {
            b.append(map(step).getOrDefault("uses", "")).append('\n');
        }
        return b.toString();
    }

    @Test
    void gitHubActionsRunsShardsOfOnePlanThenMerges() throws Exception {
        Map<String, Object> jobs = map(yaml("github-actions.yml").get("jobs"));
        Map<String, Object> detect = map(jobs.get("detect"));
        List<Object> shards =
                list(map(map(detect.get("strategy")).get("matrix")).get("shard"));
        assertEquals(List.of(1, 2, 3, 4), shards);
        String run = runs(detect);
        assertTrue(run.contains("odrust:detect"), run);
        assertTrue(run.contains("-Dodrust.shard=${{ matrix.shard }}/" + shards.size()), run);
        assertTrue(run.contains("-Dodrust.seed=${{ github.run_id }}"), "one seed for every shard: " + run);
        assertTrue(uses(detect).contains("actions/upload-artifact"), "the shards' output is kept");

        Map<String, Object> merge = map(jobs.get("merge"));
        assertEquals("detect", merge.get("needs"));
        assertTrue(uses(merge).contains("actions/download-artifact"));
        String mergeRun = runs(merge);
        assertTrue(mergeRun.contains("odrust:merge") && mergeRun.contains("-Dodrust.merge.from=shards/*"), mergeRun);
        assertTrue(mergeRun.contains("-Dodrust.failOnFlaky=true"), mergeRun);
        documented(run + mergeRun);
    }

    @Test
    void gitHubActionsKeepsTheHistoryAndAnnotatesPullRequests() throws Exception {
        Map<String, Object> merge =
                map(map(yaml("github-actions.yml").get("jobs")).get("merge"));
        String mergeRun = runs(merge);
        assertTrue(mergeRun.contains("-Dodrust.history=.odrust-history"), mergeRun);
        assertTrue(mergeRun.contains("odrust:history -Dodrust.history=.odrust-history"), mergeRun);
        assertTrue(uses(merge).contains("actions/cache/restore") && uses(merge).contains("actions/cache/save"));

        Map<String, Object> pr = yaml("github-actions-pr.yml");
        assertTrue(map(pr.get(Boolean.TRUE) != null ? pr.get(Boolean.TRUE) : pr.get("on"))
                .containsKey("pull_request"));
        Map<String, Object> job = map(map(pr.get("jobs")).get("incremental"));
        String run = runs(job);
        assertTrue(run.contains("odrust:incremental") && run.contains("-Dodrust.annotations=github"), run);
        documented(mergeRun + run);
    }

    @Test
    void gitLabRunsParallelShardsOfOnePlanThenMerges() throws Exception {
        Map<String, Object> ci = yaml("gitlab-ci.yml");
        Map<String, Object> detect = map(ci.get("odrust-detect"));
        assertEquals(4, detect.get("parallel"));
        String script = String.join(
                "\n", list(detect.get("script")).stream().map(String::valueOf).toList());
        assertTrue(script.contains("-Dodrust.shard=$CI_NODE_INDEX/$CI_NODE_TOTAL"), script);
        assertTrue(script.contains("-Dodrust.seed=$CI_PIPELINE_ID"), script);
        assertTrue(script.contains("-Dodrust.outputDirectory=shards/shard-$CI_NODE_INDEX"), script);
        assertTrue(list(map(detect.get("artifacts")).get("paths")).contains("shards/"));

        Map<String, Object> merge = map(ci.get("odrust-merge"));
        assertEquals("merge", merge.get("stage"));
        assertEquals("odrust-detect", map(list(merge.get("needs")).get(0)).get("job"));
        String mergeScript = String.join(
                "\n", list(merge.get("script")).stream().map(String::valueOf).toList());
        assertTrue(mergeScript.contains("odrust:merge -Dodrust.merge.from=shards/*"), mergeScript);
        assertTrue(mergeScript.contains("-Dodrust.failOnFlaky=true"), mergeScript);
        documented(script + mergeScript);
    }

    /** Every -Dodrust.* property in {@code text} is a row of docs/configuration.md. */
    private static void documented(String text) throws Exception {
        String reference = Files.readString(DOCS.resolve("configuration.md"), StandardCharsets.UTF_8);
        Set<String> used = new TreeSet<>();
        Matcher m = Pattern.compile("-D(odrust\\.[A-Za-z.]+)=").matcher(text);
        while (m.find()) {
            used.add(m.group(1));
        }
        assertTrue(used.size() >= 3, "properties: " + used);
        for (String p : used) {
            assertTrue(reference.contains("| `" + p + "` |"), p + " is not in docs/configuration.md");
        }
    }
}
