package io.github.odrust.maven;

import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The settings of goals whose findings go to CI (odrust:detect and what builds on it, odrust:merge):
 * the run history, annotations and the quarantine (docs/history.md, docs/ci.md).
 */
public abstract class AbstractCiMojo extends AbstractOdrustMojo {
    /**
     * A directory that keeps one record per run (docs/history.md), relative to where Maven ran; a
     * CI cache or artifact keeps it between runs. {@code mvn odrust:history} shows it over time.
     */
    @Parameter(property = "odrust.history")
    protected String history;

    /** The commit a history record names; {@code git rev-parse HEAD} in the module when unset. */
    @Parameter(property = "odrust.history.commit")
    protected String historyCommit;

    /**
     * Annotations of the findings where developers look (docs/history.md): {@code github} (workflow
     * commands a pull request shows inline) or {@code gitlab} (a Code Quality report).
     */
    @Parameter(property = "odrust.annotations")
    protected String annotations;

    /** The quarantine file (docs/history.md, "Quarantine"), relative to the module. */
    @Parameter(property = "odrust.quarantine", defaultValue = ".odrust/quarantine.json")
    protected String quarantine;

    /** The day quarantine expiries are checked against ({@code YYYY-MM-DD}); today (UTC) when unset. */
    @Parameter(property = "odrust.quarantine.today")
    protected String quarantineToday;

    /** Runs of the history without a sighting after which a quarantine entry is ready to remove. */
    @Parameter(property = "odrust.quarantine.removeAfter", defaultValue = "3")
    protected int quarantineRemoveAfter;

    /** The CI settings as given, checked before anything runs. */
    protected CiSettings ciSettings() throws MojoFailureException {
        return CiSettings.of(annotations, quarantineToday, quarantineRemoveAfter);
    }

    /** The run records of {@code odrust.history}, or null when it is not given. */
    protected io.github.odrust.maven.history.RunRecords runRecords() {
        return runRecords(history, historyCommit);
    }
}
