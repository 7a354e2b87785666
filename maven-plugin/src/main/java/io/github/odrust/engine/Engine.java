package io.github.odrust.engine;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The loaded engine: one method, {@link #call}, taking and returning JSON as described in
 * docs/protocol.md. Obtain it from {@link EngineLoader#load}.
 */
public final class Engine {
    private final String version;

    Engine(String version) {
        this.version = version;
    }

    public String version() {
        return version;
    }

    /** Runs {@code op}; throws {@link EngineException} with the engine's code and message on error. */
    public JsonObject call(String op, Object request) {
        JsonElement json = request instanceof JsonElement ? (JsonElement) request : Json.WIRE.toJsonTree(request);
        String response = NativeEngine.call(op, Json.WIRE.toJson(json));
        return JsonParser.parseString(response).getAsJsonObject();
    }

    /** Like {@link #call} but maps the response onto {@code type}. */
    public <T> T call(String op, Object request, Class<T> type) {
        return Json.WIRE.fromJson(call(op, request), type);
    }
}
