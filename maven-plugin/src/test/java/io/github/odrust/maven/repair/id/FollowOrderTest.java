package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

class FollowOrderTest {
    private static JsonArray calls(String... json) {
        JsonArray a = new JsonArray();
        for (String j : json) {
            a.add(JsonParser.parseString(j));
        }
        return a;
    }

    private static String call(String type, String cls, String file, int line) {
        return "{\"index\":1,\"api\":\"HashMap$KeySet.iterator\",\"at\":{\"class\":\"com.a.T\",\"line\":3},"
                + "\"alloc\":{\"type\":\"" + type + "\",\"at\":{\"class\":\"" + cls + "\",\"method\":\"m\",\"file\":\""
                + file + "\",\"line\":" + line + "}}}";
    }

    @Test
    void eachAllocationOfTheModulesSourcesOnceInTheOrderOfTheCalls() {
        Path src = Paths.get("src/main/java");
        List<FollowOrder.Site> sites = FollowOrder.allocations(
                calls(
                        call("HashSet", "com.a.Tags", "Tags.java", 15),
                        "{\"index\":2,\"api\":\"Class.getDeclaredFields\",\"at\":{\"class\":\"com.a.T\",\"line\":4}}",
                        call("HashMap", "com.a.Roster", "Roster.java", 8),
                        call("HashSet", "com.a.Tags", "Tags.java", 15),
                        call("HashMap", "org.lib.Cache", "Cache.java", 40),
                        call("TreeMap", "com.a.Roster", "Roster.java", 9)),
                // the module's sources hold com.a's classes only
                (cls, file) -> cls.startsWith("com.a.") ? src.resolve("com/a/" + file) : null);
        assertEquals(
                List.of(
                        new FollowOrder.Site(src.resolve("com/a/Tags.java"), 15, "HashSet"),
                        new FollowOrder.Site(src.resolve("com/a/Roster.java"), 8, "HashMap")),
                sites);
    }
}
