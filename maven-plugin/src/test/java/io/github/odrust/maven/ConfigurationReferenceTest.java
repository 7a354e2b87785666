package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.protocol.Vocabulary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * docs/configuration.md against the plugin descriptor that maven-plugin-plugin generates from the
 * mojos' {@code @Parameter}s ({@code target/classes/META-INF/maven/plugin.xml}, written in
 * process-classes): every goal and every {@code odrust.*} property is documented, with the same
 * pom name, type, default value and goals, and nothing is documented that does not exist.
 */
class ConfigurationReferenceTest {
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{(odrust\\.[^}]+)}");
    private static final Pattern CODE = Pattern.compile("^`([^`]+)`");

    /** A setting as the descriptor declares it. */
    static final class Setting {
        final String property;
        final String name;
        final String type;
        final String defaultValue;
        final boolean deprecated;
        final Set<String> goals = new TreeSet<>();

        Setting(String property, String name, String type, String defaultValue, boolean deprecated) {
            this.property = property;
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
            this.deprecated = deprecated;
        }
    }

    /** One row of a Markdown table, by column header (lower case). */
    record Row(Path file, int line, Map<String, String> cells) {
        String get(String column) {
            return cells.get(column);
        }

        String where() {
            return file.getFileName() + ":" + line;
        }
    }

    private static Path basedir;
    private static Set<String> goals;
    private static Map<String, Setting> settings;

    @BeforeAll
    static void readDescriptor() throws Exception {
        basedir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        Path descriptor = basedir.resolve("target/classes/META-INF/maven/plugin.xml");
        assertTrue(
                Files.isRegularFile(descriptor),
                descriptor + " is missing: maven-plugin-plugin writes it in process-classes;"
                        + " run this test through Maven (mvn test in maven-plugin)");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(descriptor.toFile());
        goals = new TreeSet<>();
        settings = new TreeMap<>();
        NodeList mojos = doc.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            String goal = child(mojo, "goal").getTextContent().trim();
            goals.add(goal);
            Map<String, Element> parameters = new LinkedHashMap<>();
            Element params = child(mojo, "parameters");
            for (Element p : children(params)) {
                parameters.put(child(p, "name").getTextContent().trim(), p);
            }
            Element configuration = child(mojo, "configuration");
            for (Element c : children(configuration)) {
                Matcher m = PROPERTY.matcher(c.getTextContent().trim());
                if (!m.matches()) {
                    continue;
                }
                String property = m.group(1);
                Element p = parameters.get(c.getTagName());
                String type = c.getAttribute("implementation");
                String def = c.hasAttribute("default-value") ? c.getAttribute("default-value") : null;
                boolean deprecated = p != null && child(p, "deprecated") != null;
                Setting s = new Setting(property, c.getTagName(), type, def, deprecated);
                Setting known = settings.putIfAbsent(property, s);
                if (known != null
                        && !(known.name.equals(s.name)
                                && known.type.equals(s.type)
                                && String.valueOf(known.defaultValue).equals(String.valueOf(s.defaultValue)))) {
                    fail(property + " is declared differently by two goals (" + known.goals + " and " + goal
                            + "): one property should mean one thing");
                }
                settings.get(property).goals.add(goal);
            }
        }
        assertTrue(
                goals.contains("detect") && settings.containsKey("odrust.seed"), "unexpected descriptor " + descriptor);
    }

    @Test
    void theReferenceListsEveryGoalAndNoOther() throws IOException {
        List<String> problems = new ArrayList<>();
        Set<String> documented = new TreeSet<>();
        for (Row row : tables(reference())) {
            String goal = row.get("goal");
            if (goal == null) {
                continue;
            }
            String name = code(goal);
            if (name == null || !name.startsWith("odrust:")) {
                problems.add(row.where() + ": a goal is written `odrust:name`, not " + goal);
                continue;
            }
            documented.add(name.substring("odrust:".length()));
        }
        for (String g : goals) {
            if (!documented.contains(g)) {
                problems.add("goal odrust:" + g + " is missing from the Goals table of docs/configuration.md");
            }
        }
        for (String g : documented) {
            if (!goals.contains(g)) {
                problems.add("docs/configuration.md documents goal odrust:" + g + ", which the plugin does not have");
            }
        }
        report("docs/configuration.md", problems);
    }

    @Test
    void theReferenceListsEveryPropertyAsDeclared() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Row> documented = new TreeMap<>();
        for (Row row : tables(reference())) {
            String cell = row.get("property");
            String property = cell == null ? null : code(cell);
            if (property == null || !property.startsWith("odrust.")) {
                continue;
            }
            if (documented.put(property, row) != null) {
                problems.add(row.where() + ": " + property + " is documented twice");
            }
        }
        for (Setting s : settings.values()) {
            Row row = documented.get(s.property);
            if (row == null) {
                problems.add(
                        s.property + " (" + String.join(", ", s.goals) + ") is missing from docs/configuration.md");
                continue;
            }
            check(problems, s, row);
        }
        for (Map.Entry<String, Row> e : documented.entrySet()) {
            if (!settings.containsKey(e.getKey())) {
                problems.add(e.getValue().where() + ": " + e.getKey() + " is documented but no goal has it");
            }
        }
        report("docs/configuration.md", problems);
    }

    /** Defaults the engine decides (no default in the plugin descriptor) are documented as the engine has them. */
    @Test
    void theEnginesDefaultsAreDocumentedAsTheEngineHasThem() throws IOException {
        Vocabulary.DetectDefaults engine = EngineLoader.load(null, "0.1.0-SNAPSHOT")
                .call("vocabulary", new JsonObject(), Vocabulary.class)
                .detectDefaults;
        Map<String, String> expected = new TreeMap<>(Map.of(
                "odrust.strategy", engine.strategy,
                "odrust.k", String.valueOf(engine.k),
                "odrust.baselineTries", String.valueOf(engine.baselineTries),
                "odrust.aloneRuns", String.valueOf(engine.aloneRuns),
                "odrust.minimize.budget", String.valueOf(engine.minimizeBudgetPerTest)));
        List<String> problems = new ArrayList<>();
        for (Row row : tables(reference())) {
            String cell = row.get("property");
            String property = cell == null ? null : code(cell);
            String want = property == null ? null : expected.remove(property);
            if (want != null && !want.equals(code(row.get("default")))) {
                problems.add(row.where() + ": " + property + " defaults to `" + want + "` in the engine, "
                        + row.get("default") + " in the docs");
            }
        }
        expected.keySet().forEach(p -> problems.add(p + " is missing from docs/configuration.md"));
        report("docs/configuration.md", problems);
    }

    /** The parameter tables of the other pages (detect.md, run-order.md, ...) name only real properties. */
    @Test
    void otherPagesDocumentOnlyRealProperties() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> files = Files.list(docs())) {
            pages = files.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .toList();
        }
        for (Path page : pages) {
            for (Row row : tables(page)) {
                String cell = row.get("property");
                String property = cell == null ? null : code(cell);
                if (property != null && property.startsWith("odrust.") && !settings.containsKey(property)) {
                    problems.add(row.where() + ": " + property + " is documented but no goal has it");
                }
            }
        }
        report("the parameter tables of docs/*.md", problems);
    }

    private static void check(List<String> problems, Setting s, Row row) {
        String where = row.where() + ": " + s.property;
        String name = row.get("pom name");
        if (name == null || !s.name.equals(code(name))) {
            problems.add(where + ": pom name is `" + s.name + "` in the plugin, " + name + " in the docs");
        }
        String def = row.get("default");
        if (def != null && s.defaultValue != null && !s.defaultValue.equals(code(def))) {
            problems.add(where + ": default is `" + s.defaultValue + "` in the plugin, " + def
                    + " in the docs (write it first, in backticks)");
        }
        String goalsCell = row.get("goals");
        if (goalsCell == null) {
            problems.add(where + ": no goals column");
        } else {
            Set<String> listed = new TreeSet<>();
            if (goalsCell.trim().equals("all")) {
                listed.addAll(goals);
                listed.remove("help"); // Maven's generated help goal takes no odrust.* setting
            } else {
                for (String g : goalsCell.split(",")) {
                    listed.add(g.replace("`", "").replace("odrust:", "").trim());
                }
            }
            if (!listed.equals(s.goals)) {
                problems.add(where + ": goals are " + s.goals + " in the plugin, " + listed + " in the docs");
            }
        }
        String type = row.get("type");
        if (type != null && !typeFits(s.type, type.trim())) {
            problems.add(where + ": type " + type.trim() + " in the docs does not fit " + s.type + " in the plugin");
        }
        boolean documentedDeprecated = row.cells().containsKey("use instead");
        if (s.deprecated != documentedDeprecated) {
            problems.add(where
                    + (s.deprecated
                            ? " is deprecated in the plugin: list it under \"Deprecated names\""
                            : " is not deprecated in the plugin, but listed under \"Deprecated names\""));
        }
        if (documentedDeprecated) {
            Setting replacement = settings.get(code(row.get("use instead")));
            if (replacement == null || replacement.deprecated) {
                problems.add(where + ": use instead " + row.get("use instead") + ", which is not a current property");
            }
        }
    }

    private static boolean typeFits(String javaType, String docType) {
        switch (javaType) {
            case "boolean":
            case "java.lang.Boolean":
                return docType.equals("boolean");
            case "int":
            case "long":
            case "java.lang.Integer":
            case "java.lang.Long":
                return docType.equals("integer");
            case "java.io.File":
                return docType.equals("path");
            case "java.lang.String":
                return Set.of("text", "list", "duration").contains(docType);
            default:
                return false;
        }
    }

    private static void report(String pages, List<String> problems) {
        if (!problems.isEmpty()) {
            fail("checked " + pages
                    + " against the plugin's parameters (target/classes/META-INF/maven/plugin.xml), found:\n  "
                    + String.join("\n  ", problems));
        }
    }

    private static Path docs() {
        return basedir.resolve("../docs").normalize();
    }

    private static Path reference() {
        Path reference = docs().resolve("configuration.md");
        assertTrue(Files.isRegularFile(reference), reference + " is missing");
        return reference;
    }

    /** Every row of every Markdown table in {@code file}, keyed by its table's (lower-case) headers. */
    static List<Row> tables(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Row> rows = new ArrayList<>();
        List<String> header = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            if (header == null) {
                boolean separated =
                        i + 1 < lines.size() && lines.get(i + 1).trim().matches("\\|(\\s*:?-+:?\\s*\\|)+");
                if (separated) {
                    header = cells(line).stream()
                            .map(c -> c.trim().toLowerCase(java.util.Locale.ROOT))
                            .toList();
                    i++;
                }
                continue;
            }
            List<String> cells = cells(line);
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.size() && c < cells.size(); c++) {
                row.put(header.get(c), cells.get(c).trim());
            }
            rows.add(new Row(file, i + 1, row));
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        return List.of(inner.split("\\|", -1));
    }

    /** The text of the code span the cell starts with, or null. */
    private static String code(String cell) {
        Matcher m = CODE.matcher(cell.trim());
        return m.find() ? m.group(1) : null;
    }

    private static Element child(Element parent, String name) {
        for (Element e : children(parent)) {
            if (e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent) {
        List<Element> l = new ArrayList<>();
        if (parent == null) {
            return l;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                l.add(e);
            }
        }
        return l;
    }
}
