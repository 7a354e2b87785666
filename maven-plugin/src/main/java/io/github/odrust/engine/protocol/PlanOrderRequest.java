package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;

/** Request of {@code plan_order} (Rust: {@code protocol::PlanOrderRequest}). */
public final class PlanOrderRequest {
    public Suite suite;
    /** The text of the order file, or the inline {@code -Dodrust.order} list. */
    @SerializedName("order_text")
    public String orderText;
    /** Where the order came from, for messages. */
    public String source;

    public PlanOrderRequest(Suite suite, String orderText, String source) {
        this.suite = suite;
        this.orderText = orderText;
        this.source = source;
    }
}
