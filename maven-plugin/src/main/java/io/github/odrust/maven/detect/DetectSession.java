package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineException;
import io.github.odrust.engine.protocol.DetectEndRequest;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.Suite;
import java.util.UUID;

/**
 * The engine's side of one detection run (docs/protocol.md, "Sessions"): the engine keeps the
 * state its replay of the history reached, and each call sends only the experiments recorded
 * since the last one, so a call costs the same after 10 experiments as after 20,000. The answers
 * are those of a whole replay of the history. When the engine no longer holds the session
 * ({@code session-lost}), the next call sends the whole history again.
 */
final class DetectSession implements AutoCloseable {
    private final Engine engine;
    private final JsonObject suite;
    private final DetectConfig config;
    private final ExperimentLog history;
    private final String id = "detect-" + UUID.randomUUID();
    /** How many records of the history the engine's session holds; 0: start it anew. */
    private int held;

    DetectSession(Engine engine, JsonObject suite, DetectConfig config, ExperimentLog history) {
        this.engine = engine;
        this.suite = suite;
        this.config = config;
        this.history = history;
    }

    /** The session's name in the engine. */
    String id() {
        return id;
    }

    /** {@code detect_next} over the whole history so far. */
    JsonObject next() {
        return call("detect_next");
    }

    /** {@code detect_summary} over the whole history so far. */
    JsonObject summary() {
        return call("detect_summary");
    }

    private JsonObject call(String op) {
        try {
            return send(op);
        } catch (EngineException e) {
            if (!"session-lost".equals(e.getCode()) || held == 0) {
                throw e;
            }
            held = 0;
            return send(op);
        }
    }

    private JsonObject send(String op) {
        JsonArray all = history.history();
        int from = held <= all.size() ? held : 0;
        DetectRequest r = new DetectRequest();
        r.config = config.toRequest();
        if (from == 0) {
            r.suite = Suite.of(suite);
        }
        for (int i = from; i < all.size(); i++) {
            r.history.add(ExperimentRecord.of(all.get(i)));
        }
        r.session = id;
        r.historyFrom = from;
        JsonObject answer = engine.call(op, r);
        held = all.size();
        return answer;
    }

    /** Frees the engine's state of this run. */
    @Override
    public void close() {
        try {
            engine.call("detect_end", new DetectEndRequest(id));
        } catch (EngineException e) {
            // an engine without the session has nothing to free
        }
    }
}
