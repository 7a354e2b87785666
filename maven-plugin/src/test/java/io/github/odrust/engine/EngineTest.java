package io.github.odrust.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real engine, loaded over JNI from the library the build bundled into target/classes. */
class EngineTest {
    private static Engine engine;

    @BeforeAll
    static void load() {
        engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
    }

    private static JsonObject suite() {
        return JsonParser.parseString(
                        "{\"schema_version\":1,\"module\":\"g:a\",\"classes\":["
                                + "{\"class\":\"p.A\",\"framework\":\"junit4\",\"reorderable\":true,\"tests\":[\"p.A#a1\",\"p.A#a2\"],\"dynamic\":[]},"
                                + "{\"class\":\"p.B\",\"framework\":\"junit5\",\"reorderable\":true,\"tests\":[\"p.B#b1\"],\"dynamic\":[]}]}")
                .getAsJsonObject();
    }

    @Test
    void handshakeReportsTheEngineVersion() {
        assertEquals(NativeEngine.ABI_VERSION, NativeEngine.abiVersion());
        assertEquals("0.1.0", engine.version());
        assertEquals(2, engine.call("version", new JsonObject()).get("abi").getAsInt());
    }

    @Test
    void plansAnInterleavedOrderIntoSegments() {
        JsonObject req = new JsonObject();
        req.add("suite", suite());
        req.addProperty("order_text", "p.A#a1\np.B#b1\np.A#a2\np.A#a2\n");
        req.addProperty("source", "test");
        JsonArray segments = engine.call("plan_order", req).getAsJsonArray("segments");
        assertEquals(4, segments.size(), segments.toString());
        assertEquals("p.B", segments.get(1).getAsJsonObject().get("class").getAsString());
    }

    @Test
    void anUnknownTestIsAnEngineExceptionWithItsCode() {
        JsonObject req = new JsonObject();
        req.add("suite", suite());
        req.addProperty("order_text", "p.A#nope");
        req.addProperty("source", "orders/x.txt");
        EngineException e = assertThrows(EngineException.class, () -> engine.call("plan_order", req));
        assertEquals("unknown-test", e.getCode());
        assertTrue(e.getMessage().contains("p.A#nope"), e.getMessage());
        assertTrue(e.isUserError(), "a test id that does not exist is the user's to fix");
    }

    @Test
    void malformedJsonIsABadRequest() {
        EngineException e = assertThrows(EngineException.class, () -> NativeEngine.call("plan_order", "{not json"));
        assertEquals("bad-request", e.getCode());
        assertFalse(e.isUserError(), "a bad request between plugin and engine is odrust's bug");
    }

    @Test
    void anUnknownOperationIsReported() {
        EngineException e = assertThrows(EngineException.class, () -> NativeEngine.call("no_such_op", "{}"));
        assertEquals("unknown-op", e.getCode());
    }

    @Test
    void aRustPanicBecomesAJavaExceptionAndTheJvmLivesOn() {
        EngineException e = assertThrows(EngineException.class, () -> NativeEngine.call("selftest_panic", "{}"));
        assertEquals("panic", e.getCode());
        assertTrue(e.getMessage().contains("panicked at engine/src/protocol.rs:"), e.getMessage());
        assertFalse(e.isUserError());
        // the engine still works after a panic
        assertEquals("0.1.0", NativeEngine.engineVersion());
        assertEquals(
                NativeEngine.ABI_VERSION,
                engine.call("version", new JsonObject()).get("abi").getAsInt());
    }

    @Test
    void aPluginRefusesAnEngineOfAnotherVersion() {
        EngineException e = assertThrows(
                EngineException.class,
                () -> EngineLoader.checkVersions("lib.so", NativeEngine.ABI_VERSION, "0.2.0", "0.1.0-SNAPSHOT"));
        assertEquals("version", e.getCode());
        assertTrue(e.getMessage().contains("0.2.0") && e.getMessage().contains("0.1.0-SNAPSHOT"), e.getMessage());
        EngineException abi = assertThrows(
                EngineException.class,
                () -> EngineLoader.checkVersions("lib.so", NativeEngine.ABI_VERSION + 1, "0.1.0", "0.1.0"));
        assertTrue(abi.getMessage().contains("ABI " + (NativeEngine.ABI_VERSION + 1)), abi.getMessage());
        EngineLoader.checkVersions("lib.so", NativeEngine.ABI_VERSION, "0.1.0", "0.1.0-SNAPSHOT");
    }
}
