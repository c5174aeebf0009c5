package sessionref.kit;

/** A SessionReferenceError: a failure with one of the contract's codes. */
public class ContractException extends RuntimeException implements Coded {
    /** The contract's codes (SessionReferenceErrorCode). */
    public static final String INVALID_CONFIG = "SESSION_REFERENCE_INVALID_CONFIG",
            INVALID_REFERENCE = "SESSION_REFERENCE_INVALID_REFERENCE",
            SELF_REFERENCE = "SESSION_REFERENCE_SELF_REFERENCE",
            TOO_MANY = "SESSION_REFERENCE_TOO_MANY",
            READ_FAILED = "SESSION_REFERENCE_READ_FAILED",
            BUDGET_EXCEEDED = "SESSION_REFERENCE_BUDGET_EXCEEDED",
            CANCELLED = "SESSION_REFERENCE_CANCELLED";

    private final String code;

    public ContractException(String code, String message) { this(code, message, null); }

    public ContractException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    @Override public String sessionReferenceCode() { return code; }
}
