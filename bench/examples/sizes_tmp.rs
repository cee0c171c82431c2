fn main() {
    println!(
        "ours Resource {}",
        std::mem::size_of::<mcp_spec_types::v2025_06_18::Resource>()
    );
    println!(
        "ours Annotations {}",
        std::mem::size_of::<mcp_spec_types::v2025_06_18::Annotations>()
    );
    println!(
        "rms Resource {}",
        std::mem::size_of::<rust_mcp_schema::mcp_2025_06_18::Resource>()
    );
    println!(
        "rmcp Resource {}",
        std::mem::size_of::<rmcp::model::Resource>()
    );
}
