package io.github.odrust.engine.protocol;

import com.google.gson.Gson;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;

/**
 * For a field the engine leaves out when it has no value ({@code skip_serializing_if} on the Rust
 * side): written like any field, but left out when null even by a Gson that keeps nulls
 * ({@link io.github.odrust.engine.Json#WIRE}). Use as
 * {@code @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)}.
 */
public final class OmitWhenNull implements TypeAdapterFactory {
    @Override
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
        TypeAdapter<T> delegate = gson.getAdapter(type);
        return new TypeAdapter<T>() {
            @Override
            public void write(JsonWriter out, T value) throws IOException {
                if (value != null) {
                    delegate.write(out, value);
                    return;
                }
                // A null value with serializeNulls off drops the pending field name too.
                boolean serializeNulls = out.getSerializeNulls();
                out.setSerializeNulls(false);
                out.nullValue();
                out.setSerializeNulls(serializeNulls);
            }

            @Override
            public T read(JsonReader in) throws IOException {
                return delegate.read(in);
            }
        };
    }
}
